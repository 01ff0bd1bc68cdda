import {
  routes,
  type Route,
  isErrorCode,
  isTokenExpiry,
  ErrorCode,
  type ArgsOf,
  type EndpointName,
  type ReplyOf,
} from '@xoss/api-contract/routes';
import { TOKENLESS, requestFor } from './request.ts';
import type { SessionStore, Tokens } from './session.ts';

/** Spec 7: every call gives up after 120 s. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Spec 8: how long the server's detail message of an expired session is shown. */
export const EXPIRY_NOTICE_MS = 1000;
export { PRODUCT_HEADER, PRODUCT_NAME } from './request.ts';
/** Web Locks name under which one refresh runs across all tabs. */
export const REFRESH_LOCK = 'xoss-token-refresh';

/**
 * A call that got no usable reply: the network failed, it timed out, the caller gave it up,
 * or a successful status carried something other than the API's JSON.
 */
export interface ApiNoReply {
  readonly status: 'NETWORK_ERROR' | 'TIMEOUT_ERROR' | 'ABORTED' | 'PARSING_ERROR';
}

/**
 * An error status. The API's envelope fields are there when the API itself answered; a
 * proxy in front of it (a 502 page) gives the status alone.
 */
export interface ApiErrorReply {
  readonly status: number;
  /** The API's error code (docs/api.md). */
  readonly code?: ErrorCode;
  readonly msg?: string;
  readonly detail?: string;
  readonly errors?: readonly { path: string; message: string }[];
  /** A 10409 of an import: the id of what already holds the same content. */
  readonly existingId?: number;
  /** Seconds to wait, from `Retry-After` (rate limits). */
  readonly retryAfterS?: number;
}

/** A failed call: told apart by `status`, a number for an HTTP error, a name for no reply. */
export type ApiFailure = ApiNoReply | ApiErrorReply;

/**
 * The failure in an error of unknown type (what RTK Query hands a component: this client's
 * `ApiFailure`, or a serialized exception), or `undefined` when it is not one.
 */
export function apiFailureOf(error: unknown): ApiFailure | undefined {
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return typeof status === 'number' ||
    status === 'NETWORK_ERROR' ||
    status === 'TIMEOUT_ERROR' ||
    status === 'ABORTED' ||
    status === 'PARSING_ERROR'
    ? (error as ApiFailure)
    : undefined;
}

/** Whether a failed call got an HTTP error status (then it may carry the API's fields). */
export const isErrorReply = (error: ApiFailure): error is ApiErrorReply =>
  typeof error.status === 'number';

export type CallResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ApiFailure };

type RefreshOutcome = 'refreshed' | 'unauthorized' | 'network';

export interface TransportOptions {
  readonly session: SessionStore;
  /** Origin of the API; '' (the default) is the page's own origin. */
  readonly baseUrl?: string;
  readonly fetch?: typeof fetch;
  /** Cross-tab mutual exclusion; `navigator.locks` by default, none when unavailable. */
  readonly locks?: Pick<LockManager, 'request'> | null;
  readonly timeoutMs?: number;
  /** Waits before each retry of a refresh that met a network error. */
  readonly refreshBackoffMs?: readonly number[];
  /** Shows a message for a while (the session-expiry notice of spec 8). */
  readonly notify?: (message: string, durationMs: number) => void;
  /** Called once the session is over (refresh refused): clear state, go to /login. */
  readonly onLoggedOut?: () => void;
  /** Called with the new tokens after a successful refresh. */
  readonly onTokens?: (tokens: Tokens) => void;
}

const noRefresh = TOKENLESS;

/**
 * Calls the API by endpoint name with the session's bearer token. A reply of 401 with code
 * 10001 starts one refresh (one at a time in this tab, and across tabs under a Web Lock);
 * every call that failed meanwhile waits for it and is retried once. A refused refresh ends
 * the session; a network error during refresh keeps it (retried with back-off).
 */
/** Per-call options of `Transport.call`. */
export interface CallInit {
  readonly signal?: AbortSignal;
  readonly headers?: Record<string, string>;
  /** Bytes sent so far and in all, while a file is uploaded (in browsers). */
  readonly onUploadProgress?: (sent: number, total: number) => void;
}

/** fetch's contract over XMLHttpRequest, for the upload progress events fetch lacks. */
function xhrFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: BodyInit; signal: AbortSignal },
  onProgress: (sent: number, total: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, url);
    xhr.responseType = 'blob';
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const empty = [101, 204, 205, 304].includes(xhr.status);
      resolve(new Response(empty ? null : (xhr.response as Blob), { status: xhr.status, headers }));
    };
    const fail = () => reject(new TypeError('Network request failed'));
    xhr.onerror = fail;
    xhr.onabort = fail;
    xhr.ontimeout = fail;
    if (init.signal.aborted) return fail();
    init.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(init.body as XMLHttpRequestBodyInit);
  });
}

export class Transport {
  readonly #options: TransportOptions;
  readonly #fetch: typeof fetch;
  #refreshing: Promise<RefreshOutcome> | undefined;
  /**
   * The end of the session has been reported (`onLoggedOut`) and no token has been stored
   * since: calls answered 401 afterwards end nothing again. Without it each late 401 ended
   * the session anew, and the app's cache reset behind it made a page still on screen
   * refetch, fail, end the session and reset again: the settings page's 56 requests.
   */
  #ended = false;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Calls an endpoint; the reply's `data`, a `Blob` for file endpoints, or the failure. */
  async call<N extends EndpointName>(
    name: N,
    arg: ArgsOf<N>,
    init: CallInit = {},
  ): Promise<CallResult<ReplyOf<N>>> {
    // A call that starts while a refresh runs waits for its token.
    if (this.#refreshing && !noRefresh.has(name)) await this.#refreshing;
    const sentWith = this.#options.session.tokens()?.access;
    if (sentWith !== undefined) this.#ended = false;
    // A signed-in call without a token can only be refused: it is not sent. After a refused
    // refresh this is what keeps a page still on screen (its queries subscribe again when
    // the cache is reset) from sending anything until the rider has logged in again.
    else if (routes[name].access !== 'public') {
      this.#loggedOut(undefined);
      return { ok: false, error: signedOut };
    }
    const first = await this.#send(name, arg, init, sentWith);
    if (first.ok || noRefresh.has(name) || !isExpiry(first.error)) return first;

    const detail = isErrorReply(first.error) ? first.error.detail : undefined;
    const outcome = await this.refreshAfter(sentWith, detail);
    // Offline during the refresh: the session stands; the caller sees why the call failed.
    if (outcome === 'network') return { ok: false, error: { status: 'NETWORK_ERROR' } };
    if (outcome === 'unauthorized') return first;
    // Retried once: a second 10001 is returned as it is, never another refresh.
    return this.#send(name, arg, init, this.#options.session.tokens()?.access);
  }

  /**
   * Makes sure the access token is newer than `failedAccess`: joins the refresh in flight,
   * or runs one under the cross-tab lock, re-reading storage inside it in case another tab
   * has refreshed meanwhile.
   */
  refreshAfter(failedAccess: string | undefined, detail?: string): Promise<RefreshOutcome> {
    this.#refreshing ??= this.#lockedRefresh(failedAccess, detail).finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  async #lockedRefresh(
    failedAccess: string | undefined,
    detail: string | undefined,
  ): Promise<RefreshOutcome> {
    const locks =
      this.#options.locks === undefined
        ? (globalThis.navigator as Navigator | undefined)?.locks
        : this.#options.locks;
    const run = () => this.#refreshOnce(failedAccess, detail);
    return locks ? locks.request(REFRESH_LOCK, run) : run();
  }

  /** `detail`: the server's message of the call that failed, shown if the session ends. */
  async #refreshOnce(
    failedAccess: string | undefined,
    detail: string | undefined,
  ): Promise<RefreshOutcome> {
    const { session } = this.#options;
    const current = session.tokens();
    if (!current) return this.#loggedOut(detail);
    // Another tab (or an earlier refresh) already replaced the token that failed.
    if (failedAccess !== undefined && current.access !== failedAccess) return 'refreshed';
    const waits = this.#options.refreshBackoffMs ?? [500, 2000, 5000];
    for (let attempt = 0; ; attempt++) {
      const result = await this.#send('refresh', { body: { refresh: current.refresh } }, {});
      if (result.ok) {
        session.setTokens(result.value);
        this.#options.onTokens?.(result.value);
        return 'refreshed';
      }
      const { status } = result.error;
      // Spec 8: the server's message of the expiry that started it is shown (the refusal's
      // when the call had none).
      if (status === 401 || status === 400)
        return this.#loggedOut(
          detail || (isErrorReply(result.error) ? result.error.detail : undefined),
        );
      // No reply, or the server is unwell: the session may still be good. Try again later.
      const wait = waits[attempt];
      if (wait === undefined) return 'network';
      await new Promise((resolve) => setTimeout(resolve, wait));
      // Another tab may have succeeded while we waited.
      const now = session.tokens();
      if (!now) return this.#loggedOut(detail);
      if (now.refresh !== current.refresh) return 'refreshed';
    }
  }

  /**
   * Ends the session once: the server's message for a second (spec 8), storage cleared,
   * `onLoggedOut`. Later calls of the same ended session end nothing again.
   */
  #loggedOut(detail: string | undefined): RefreshOutcome {
    if (this.#ended) return 'unauthorized';
    this.#ended = true;
    if (detail) this.#options.notify?.(detail, EXPIRY_NOTICE_MS);
    this.#options.session.clear();
    this.#options.onLoggedOut?.();
    return 'unauthorized';
  }

  async #send<N extends EndpointName>(
    name: N,
    arg: ArgsOf<N>,
    init: CallInit,
    access?: string,
  ): Promise<CallResult<ReplyOf<N>>> {
    const endpoint: Route = routes[name];
    const { url, headers, body } = requestFor(
      name,
      arg,
      access,
      this.#options.baseUrl ?? '',
      init.headers,
    );
    const timeout = AbortSignal.timeout(this.#options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let response: Response;
    try {
      const request = {
        method: endpoint.method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal,
      };
      // fetch reports no upload progress; XMLHttpRequest does.
      response =
        init.onUploadProgress && body instanceof FormData && typeof XMLHttpRequest === 'function'
          ? await xhrFetch(url, request, init.onUploadProgress)
          : await this.#fetch(url, request);
    } catch {
      return { ok: false, error: { status: failureKind(timeout, init.signal) } };
    }
    if (endpoint.reply === 'binary' && response.ok) {
      try {
        return { ok: true, value: (await response.blob()) as ReplyOf<N> };
      } catch {
        return { ok: false, error: { status: failureKind(timeout, init.signal) } };
      }
    }
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      const kind = failureKind(timeout, init.signal);
      return {
        ok: false,
        error: {
          status:
            kind === 'NETWORK_ERROR' ? (response.ok ? 'PARSING_ERROR' : response.status) : kind,
        },
      };
    }
    const envelope = (json ?? {}) as {
      code?: unknown;
      data?: unknown;
      msg?: unknown;
      detail?: unknown;
      errors?: unknown;
      existing_id?: unknown;
    };
    if (response.ok && envelope.code === 0) return { ok: true, value: envelope.data as ReplyOf<N> };
    const retryAfter = Number(response.headers.get('retry-after'));
    return {
      ok: false,
      error: {
        status: response.ok ? 'PARSING_ERROR' : response.status,
        ...(isErrorCode(envelope.code) ? { code: envelope.code } : {}),
        ...(typeof envelope.msg === 'string' ? { msg: envelope.msg } : {}),
        ...(typeof envelope.detail === 'string' ? { detail: envelope.detail } : {}),
        ...(Array.isArray(envelope.errors)
          ? { errors: envelope.errors as { path: string; message: string }[] }
          : {}),
        ...(typeof envelope.existing_id === 'number' ? { existingId: envelope.existing_id } : {}),
        ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterS: retryAfter } : {}),
      },
    };
  }
}

/**
 * The answer to a signed-in call made without a token (never sent): what the API would say,
 * so pages explain it as they explain an expired session.
 */
const signedOut: ApiErrorReply = {
  status: 401,
  code: ErrorCode.TokenInvalid,
  msg: 'token_not_valid',
  detail: 'Not signed in',
};

/** Spec 4: the session-expiry signal is status 401 with body code 10001. */
export const isExpiry = (error: ApiFailure) =>
  isErrorReply(error) &&
  isTokenExpiry(error.status, {
    code: error.code,
    msg: error.msg ?? '',
    detail: error.detail ?? '',
  });

function failureKind(
  timeout: AbortSignal,
  caller: AbortSignal | undefined,
): 'NETWORK_ERROR' | 'TIMEOUT_ERROR' | 'ABORTED' {
  if (caller?.aborted) return 'ABORTED';
  if (timeout.aborted) return 'TIMEOUT_ERROR';
  return 'NETWORK_ERROR';
}
