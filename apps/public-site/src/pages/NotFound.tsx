import { Message } from '@xoss/i18n/react';
import { Link } from 'react-router';

export function NotFound() {
  return (
    <>
      <h1>
        <Message id="errors.notFoundPage" />
      </h1>
      <p>
        <Link to="/">
          <Message id="nav.home" />
        </Link>
      </p>
    </>
  );
}
