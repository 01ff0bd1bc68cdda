import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { MessageId } from '@xoss/i18n';
import { Message, useT } from '@xoss/i18n/react';
import type { Layout } from './useMediaQuery.ts';

/** One navbar entry: a label from the catalogue and where it goes. */
export interface NavItem {
  readonly id: string;
  readonly label: MessageId;
  readonly href: string;
  readonly external?: boolean;
}

/** The maker's shop (another site). */
export const SHOP_URL = 'https://shop.xoss.co';

/** Spec 2's entries for visitors. */
export const visitorNavItems: readonly NavItem[] = [
  { id: 'products', label: 'nav.products', href: '/' },
  { id: 'download', label: 'nav.download', href: '/product/download' },
  { id: 'resources', label: 'nav.resources', href: '/product/manuals' },
  { id: 'shop', label: 'nav.shop', href: SHOP_URL, external: true },
];

/** Spec 2's entries for signed-in riders, beside the visitor ones. */
export const riderNavItems: readonly NavItem[] = [
  { id: 'dashboard', label: 'nav.dashboard', href: '/dashboard/main' },
  // Not in spec 2's list, but the workouts (and importing a ride) and the training log are
  // what riders come for.
  { id: 'workouts', label: 'nav.workouts', href: '/dashboard/workouts/list' },
  { id: 'training', label: 'nav.training', href: '/dashboard/training/log' },
  { id: 'device', label: 'nav.device', href: '/dashboard/device/list' },
  { id: 'settings', label: 'nav.settings', href: '/dashboard/settings' },
];

/** How the app renders an internal link (its router's `Link`); a plain `<a>` by default. */
export type RenderLink = (props: {
  href: string;
  current: boolean;
  children: ReactNode;
  onClick?: () => void;
}) => ReactNode;

const plainLink: RenderLink = ({ href, current, children, onClick }) => (
  <a href={href} aria-current={current ? 'page' : undefined} onClick={onClick}>
    {children}
  </a>
);

export interface NavbarProps {
  readonly loggedIn: boolean;
  /** The signed-in rider's name, shown by Log Out. */
  readonly userName?: string;
  /** The current path, to mark the active entry. */
  readonly currentPath?: string;
  readonly items?: readonly NavItem[];
  readonly riderItems?: readonly NavItem[];
  /** Where Sign Up goes: sign-up happens in the app (spec 2). */
  readonly signUpHref?: string;
  readonly loginHref?: string;
  readonly onLogOut?: () => void;
  /** The language menu, placed at the end. */
  readonly languageMenu?: ReactNode;
  readonly renderLink?: RenderLink;
  /**
   * Forces the mobile or PC layout (stories); else width <= 800 is mobile, decided in CSS
   * (`data-layout="auto"`), so prerendered HTML has the right layout before any script.
   */
  readonly layout?: Layout;
}

/** The site's navbar in its visitor and signed-in states; a menu button on mobile. */
export function Navbar({
  loggedIn,
  userName,
  currentPath = '',
  items = visitorNavItems,
  riderItems = riderNavItems,
  signUpHref = '/product/download',
  loginHref = '/login',
  onLogOut,
  languageMenu,
  renderLink = plainLink,
  layout: forced,
}: NavbarProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  useEffect(() => {
    if (!open) return undefined;
    // Esc closes the open menu and gives the focus back to its button.
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const isCurrent = (href: string) =>
    href === '/' ? currentPath === '/' : currentPath === href || currentPath.startsWith(`${href}/`);
  const entry = (item: NavItem) => (
    <li key={item.id}>
      {item.external ? (
        <a href={item.href} rel="noopener noreferrer" target="_blank">
          {t(item.label)}
        </a>
      ) : (
        renderLink({
          href: item.href,
          current: isCurrent(item.href),
          children: t(item.label),
          onClick: close,
        })
      )}
    </li>
  );
  return (
    <nav
      className="xoss-navbar xoss-root"
      aria-label={t('nav.mainNavigation')}
      data-layout={forced ?? 'auto'}
      data-open={open}
    >
      {renderLink({
        href: '/',
        current: false,
        children: <span className="xoss-navbar__brand">XOSS</span>,
        onClick: close,
      })}
      <button
        type="button"
        ref={toggleRef}
        className="xoss-button xoss-navbar__toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        <Message id="nav.menu" />
      </button>
      <ul className="xoss-navbar__links" id={listId}>
        {items.map(entry)}
        {loggedIn && riderItems.map(entry)}
      </ul>
      <div className="xoss-navbar__end">
        {languageMenu}
        {loggedIn ? (
          <button
            type="button"
            className="xoss-navbar__link"
            onClick={() => {
              close();
              onLogOut?.();
            }}
          >
            <Message id="nav.logOut" />
            {userName ? <span className="xoss-visually-hidden"> ({userName})</span> : null}
          </button>
        ) : (
          <>
            {renderLink({
              href: signUpHref,
              current: false,
              children: <Message id="nav.signUp" />,
              onClick: close,
            })}
            {renderLink({
              href: loginHref,
              current: isCurrent(loginHref),
              children: <Message id="nav.logIn" />,
              onClick: close,
            })}
          </>
        )}
      </div>
    </nav>
  );
}
