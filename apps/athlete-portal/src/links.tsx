import { ownerOfPath } from '@xoss/api-contract/routes';
import type { RenderLink } from '@xoss/ui-kit';
import { Link } from 'react-router';

/** The portal's own paths route here; the site's load the site (a plain `<a>`). */
export const renderLink: RenderLink = ({ href, current, children, onClick }) =>
  ownerOfPath(href) === 'athlete-portal' ? (
    <Link to={href} aria-current={current ? 'page' : undefined} onClick={onClick}>
      {children}
    </Link>
  ) : (
    <a href={href} aria-current={current ? 'page' : undefined} onClick={onClick}>
      {children}
    </a>
  );
