import {
  createContext,
  use,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { FormattedMessage, IntlContext, IntlProvider, type IntlShape } from 'react-intl';
import {
  formattingLocale,
  loadMessages,
  localeFor,
  type CompiledMessages,
  type Locale,
  type MessageId,
} from './catalogue.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import type { MessageScope } from './scopes.ts';
import type { MessageValues } from './translator.ts';

export interface XossIntlProviderProps {
  /** Any language tag; unsupported ones fall back (spec 4). `en-XA` is the pseudo-locale. */
  readonly language: string;
  /** Messages already loaded (prerendering, tests): no loading state at all. */
  readonly messages?: CompiledMessages;
  /**
   * Messages of `language` already loaded, to start from without a loading state (hydrating
   * a prerendered page); unlike `messages`, a later language change still loads its own.
   */
  readonly initialMessages?: CompiledMessages;
  /** Shown until the first language has loaded. */
  readonly fallback?: ReactNode;
  /** Which part of the catalogue to load: an app's own (`site`, `portal`) or `all`. */
  readonly scope?: MessageScope;
  readonly children: ReactNode;
}

/**
 * react-intl's provider over the lazily loaded catalogue. While a new language loads, the
 * previous one stays on screen; only the very first load shows `fallback`.
 */
export function XossIntlProvider({
  language,
  messages: given,
  initialMessages,
  fallback = null,
  scope = 'all',
  children,
}: XossIntlProviderProps) {
  const locale = localeFor(language);
  // Starts from the given messages, so a later switch to loading keeps them until ready.
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: CompiledMessages } | null>(
    () => {
      const first = given ?? initialMessages;
      return first ? { locale, messages: first } : null;
    },
  );
  useEffect(() => {
    if (given) return;
    let live = true;
    // The parts pages have added (<MoreMessages>) load with the language, so a switch shows
    // the new language everywhere at once, with no page falling back to a loading state.
    void Promise.all([
      loadMessages(locale, scope),
      ...[...addedScopes].map((added) => loadMessages(locale, added)),
    ])
      .then(([messages]) => {
        if (live) setLoaded({ locale, messages });
      })
      // Offline: the language on screen stays (a reload asks again).
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [locale, given, scope]);
  const current = given ? { locale, messages: given } : loaded;
  if (!current) return <>{fallback}</>;
  return (
    <CatalogueLocale value={current.locale}>
      <IntlProvider
        locale={formattingLocale(current.locale)}
        defaultLocale={DEFAULT_LANGUAGE}
        messages={current.messages}
        onError={warnOnce}
      >
        {children}
      </IntlProvider>
    </CatalogueLocale>
  );
}

/** The catalogue locale the nearest provider shows (`en-XA` included). */
const CatalogueLocale = createContext<Locale>(DEFAULT_LANGUAGE);
/** Scopes <MoreMessages> has asked for: a language switch loads them too. */
const addedScopes = new Set<MessageScope>();

export interface MoreMessagesProps {
  /** The part of the catalogue to add (`sitePages`). */
  readonly scope: MessageScope;
  readonly children: ReactNode;
}

/**
 * Adds another part of the catalogue, in the provider's language, to what `children` can
 * show: a lazily loaded page's own messages. Suspends until that part is here (a Suspense
 * boundary or a transition above decides what shows meanwhile; prerendering waits for it).
 */
export function MoreMessages({ scope, children }: MoreMessagesProps) {
  const intl = useXossIntl();
  const locale = useContext(CatalogueLocale);
  addedScopes.add(scope);
  const more = use(loadMessages(locale, scope));
  const messages = useMemo(
    (): CompiledMessages => ({ ...(intl.messages as CompiledMessages), ...more }),
    [intl.messages, more],
  );
  return (
    <IntlProvider
      locale={intl.locale}
      defaultLocale={DEFAULT_LANGUAGE}
      messages={messages}
      onError={warnOnce}
    >
      {children}
    </IntlProvider>
  );
}

const warned = new Set<string>();
// A missing id is a bug the extraction check catches; never crash a page over it, and
// say it once rather than on every render.
function warnOnce(error: Error) {
  if (warned.has(error.message)) return;
  warned.add(error.message);
  console.warn(error.message);
}

/** `t(id, values)` for attributes and plain strings (`aria-label`, `title`, toasts). */
export function useT(): (id: MessageId, values?: MessageValues) => string {
  const intl = useXossIntl();
  return (id, values) => intl.formatMessage({ id }, values);
}

/**
 * Translates an id known only at run time (a reason id the server sent): the message when
 * the catalogue has it, else `undefined`, so the caller can show the server's own words.
 */
export function useTranslateKnown(): (id: string, values?: MessageValues) => string | undefined {
  const intl = useXossIntl();
  return (id, values) =>
    Object.hasOwn(intl.messages, id) ? intl.formatMessage({ id }, values) : undefined;
}

/** The locale the provider formats with (`en-US`, `ja`, ...). */
export function useLocale(): string {
  return useXossIntl().locale;
}

export interface MessageProps {
  readonly id: MessageId;
  /** Values, including rich-text tags as functions: `{ terms: (text) => <a>{text}</a> }`. */
  readonly values?: Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>;
}

/**
 * The provider's formatter. Without an `XossIntlProvider` above, an error that says to add
 * one (react-intl's own names its provider, which our users never used).
 */
function useXossIntl(): IntlShape {
  const intl = useContext(IntlContext) as IntlShape | null;
  if (!intl)
    throw new Error(
      'This component needs an <XossIntlProvider> (from @xoss/i18n/react) above it: it ' +
        "shows text in the provider's language. A provider's `fallback` has none yet: use " +
        '`useHasIntl()` there, or plain text.',
    );
  return intl;
}

/**
 * Whether an `XossIntlProvider` is above: what a provider's `fallback` shows (while the
 * first language loads) has none, and shows plain text instead (ui-kit's `Loading` does).
 */
export function useHasIntl(): boolean {
  return useContext(IntlContext) !== null;
}

/** A catalogue message as text (rich-text tags allowed). */
export function Message({ id, values }: MessageProps) {
  useXossIntl();
  return <FormattedMessage id={id} values={values} />;
}
