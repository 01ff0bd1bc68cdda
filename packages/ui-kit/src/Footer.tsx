import type React from 'react';
import type { MessageId } from '@xoss/i18n';
import { Message, useT } from '@xoss/i18n/react';
import { copyrightYears } from './copyright.ts';
import { SHOP_URL, type NavItem, type RenderLink } from './Navbar.tsx';

/** One column of the footer's site map: a heading and its links. */
export interface FooterGroup {
  readonly id: string;
  readonly heading: MessageId;
  readonly items: readonly NavItem[];
}

/**
 * The site map every page ends with, so each page of the site is one click away from any
 * other: products and what riders download, the community and contact, the legal texts.
 */
export const footerGroups: readonly FooterGroup[] = [
  {
    id: 'products',
    heading: 'nav.products',
    items: [
      { id: 'products', label: 'footer.allProducts', href: '/' },
      { id: 'manuals', label: 'nav.manuals', href: '/product/manuals' },
      { id: 'app', label: 'footer.app', href: '/product/download' },
      { id: 'shop', label: 'nav.shop', href: SHOP_URL, external: true },
    ],
  },
  {
    id: 'maps',
    heading: 'nav.maps',
    items: [
      { id: 'navMaps', label: 'footer.navMaps', href: '/download/maps' },
      { id: 'globalMaps', label: 'footer.sprintMaps', href: '/download/globalMaps' },
      { id: 'gpxHow', label: 'footer.gpxHow', href: '/download/gpxHow' },
      { id: 'upload', label: 'footer.uploadRoute', href: '/upload/gpxFile' },
    ],
  },
  {
    id: 'community',
    heading: 'nav.articles',
    items: [
      { id: 'articles', label: 'footer.articles', href: '/post/content' },
      { id: 'contact', label: 'nav.contact', href: '/product/contact' },
    ],
  },
  {
    id: 'legal',
    heading: 'footer.legal',
    items: [
      { id: 'terms', label: 'footer.terms', href: '/copyright/terms' },
      { id: 'protocol', label: 'footer.protocol', href: '/copyright/protocol' },
      { id: 'termsLocal', label: 'footer.termsLocal', href: '/copyright/termsLocal' },
      { id: 'privacy', label: 'footer.privacy', href: '/copyright/policy' },
      { id: 'cookies', label: 'footer.cookies', href: '/copyright/cookies' },
    ],
  },
];

export interface FooterProps {
  /** The current date; defaults to now. Stories and tests pass a fixed one. */
  now?: Date;
  /** The site map's columns; `footerGroups` by default. */
  groups?: readonly FooterGroup[];
  /** How the app renders an internal link (its router's `Link`); a plain `<a>` by default. */
  renderLink?: RenderLink;
}

const plainLink: RenderLink = ({ href, children }) => <a href={href}>{children}</a>;

/** The site footer: the site map, then the copyright span from the current year (spec 9). */
export function Footer({
  now,
  groups = footerGroups,
  renderLink = plainLink,
}: FooterProps): React.JSX.Element {
  const t = useT();
  return (
    <footer className="xoss-footer">
      <nav className="xoss-footer__map" aria-label={t('footer.siteMap')}>
        {groups.map((group) => (
          <section key={group.id} aria-labelledby={`footer-${group.id}`}>
            <h2 className="xoss-footer__heading" id={`footer-${group.id}`}>
              {t(group.heading)}
            </h2>
            <ul>
              {group.items.map((item) => (
                <li key={item.id}>
                  {item.external ? (
                    <a href={item.href} rel="noopener noreferrer" target="_blank">
                      {t(item.label)}
                    </a>
                  ) : (
                    renderLink({ href: item.href, current: false, children: t(item.label) })
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
      <small>
        <Message id="footer.copyright" values={{ years: copyrightYears(now) }} />
      </small>
    </footer>
  );
}
