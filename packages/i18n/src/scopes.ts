/**
 * Which part of the catalogue an app loads. Each app's catalogue leaves out the namespaces
 * (the part of a message id before the first dot) it never shows: the visitor site does
 * not carry the data-field names of the layout editor, the portal not the product copy.
 * `all` is the whole catalogue (Storybook, tests, other teams). A test reads each built app
 * and fails if its code names a namespace its scope leaves out.
 */
export type MessageScope = 'all' | 'site' | 'portal';

export const scopeExcludes: Readonly<Record<MessageScope, readonly string[]>> = {
  all: [],
  site: [
    'activityFiles',
    'category',
    'charts',
    'dataFields',
    'developer',
    'devices',
    'dialog',
    'embedded',
    'layout',
    'measure',
    'settings',
    'sport',
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
    'manuals',
    'post',
    'product',
    'spec',
  ],
};

/** Whether a message id belongs to a scope's catalogue. */
export const inScope = (id: string, scope: MessageScope): boolean =>
  !scopeExcludes[scope].includes(id.slice(0, id.indexOf('.')));
