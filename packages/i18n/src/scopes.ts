/**
 * Which part of the catalogue an app loads. Each app's catalogue leaves out the namespaces
 * (the part of a message id before the first dot) it never shows: the visitor site does
 * not carry the data-field names of the layout editor, the portal not the product copy.
 * `all` is the whole catalogue (Storybook, tests, other teams). A test reads each built app
 * and fails if its code names a namespace its scope leaves out.
 *
 * The visitor site loads its part in two: `site` with the first load (frame, home page),
 * and `sitePages`, what only its lazily loaded pages show (product tables, manuals, maps,
 * articles, login), added under those pages by `<MoreMessages>` (the budget of the home page's
 * script under 100 kB gzip). The portal does the same: `portal` with the first load (the
 * frame, the dashboard and the ride pages), `portalPages` with the pages that edit and import
 * (data pages, settings, archives, routebooks), so a ride opened on a phone carries about
 * half the portal's texts (the ride page's 250 kB budget). No app loads `manual`: the texts
 * of the product manuals, which the site's build prints to PDF files.
 */
export type MessageScope = 'all' | 'site' | 'sitePages' | 'portal' | 'portalPages';

/** Every scope, each compiled to a module per language (`compiled/<scope>/<tag>.js`). */
export const messageScopes: readonly MessageScope[] = [
  'all',
  'site',
  'sitePages',
  'portal',
  'portalPages',
];

/** The namespaces of `sitePages`: the site's lazily loaded pages only. */
const sitePageNamespaces = [
  'apps',
  'contact',
  'download',
  'downloads',
  'login',
  'manuals',
  'maps',
  'post',
  'spec',
] as const;

/** The namespaces of `portalPages`: only the portal's editing and import pages show them. */
const portalPageNamespaces = [
  'activityFiles',
  'archive',
  'category',
  'dataFields',
  'embedded',
  'layout',
  'routebooks',
  'settings',
  'upload',
] as const;

/** The scopes an app loads: its first load and what its lazy pages add. */
export const appScopes = {
  site: ['site', 'sitePages'],
  portal: ['portal', 'portalPages'],
} as const satisfies Record<string, readonly MessageScope[]>;

/**
 * Namespaces a scope leaves out (`sitePages` and `portalPages` are defined by what they keep
 * instead).
 */
export const scopeExcludes: Readonly<
  Record<Exclude<MessageScope, 'sitePages' | 'portalPages'>, readonly string[]>
> = {
  all: [],
  site: [
    ...sitePageNamespaces,
    'activityFiles',
    'category',
    'charts',
    'dataFields',
    'developer',
    'devices',
    'dialog',
    'embedded',
    'layout',
    'manual',
    'measure',
    'routebooks',
    'settings',
    'shared',
    'sport',
    'training',
    'upload',
    'workouts',
    'zones',
  ],
  portal: [
    'apps',
    'contact',
    'cookie',
    'copyright',
    'download',
    'downloads',
    'help',
    'login',
    'manual',
    'manuals',
    'post',
    'product',
    'spec',
    ...portalPageNamespaces,
  ],
};

/** Whether a message id belongs to a scope's catalogue. */
export function inScope(id: string, scope: MessageScope): boolean {
  const namespace = id.slice(0, id.indexOf('.'));
  if (scope === 'sitePages') return sitePageNamespaces.some((name) => name === namespace);
  if (scope === 'portalPages') return portalPageNamespaces.some((name) => name === namespace);
  return !scopeExcludes[scope].includes(namespace);
}

/** Namespaces none of an app's scopes keeps: its code may not name them. */
export const appExcludes = (app: keyof typeof appScopes): readonly string[] =>
  [...new Set(Object.values(scopeExcludes).flat())].filter((namespace) =>
    appScopes[app].every((scope) => !inScope(`${namespace}.`, scope)),
  );
