import type { ArgsOf, EndpointName } from '@xoss/api-contract/routes';
import { requestFor } from './request.ts';

/** How long a call started early waits to be taken before it is forgotten. */
export const EARLY_CALL_TTL_MS = 30_000;

const keyOf = (method: string, url: string, authorization: string | undefined) =>
  `${method} ${url} ${authorization ?? ''}`;

/** The `authorization` header of a fetch's init, however its headers are given. */
function authorizationOf(init: RequestInit | undefined): string | undefined {
  const headers = init?.headers;
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get('authorization') ?? undefined;
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  return entries.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
}

interface Started {
  readonly reply: Promise<Response>;
  readonly at: number;
  /** Ends the request, its body's download included. */
  readonly controller: AbortController;
  readonly timer: ReturnType<typeof setTimeout>;
}

/**
 * Reads (GET calls) started before the application has loaded: an app's small entry starts
 * the first page's calls with the navigation, and the transport, given `fetch` as its own,
 * takes each reply when the page asks for the same request, the same URL with the same
 * token, instead of asking again. A reply is taken once. One not taken within
 * `EARLY_CALL_TTL_MS` is dropped (its download stopped), and so is one that failed: the
 * page's own call then goes out. Anything else is fetched. `baseUrl` is the client's.
 */
export class EarlyCalls {
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #baseUrl: string;
  readonly #calls = new Map<string, Started>();

  constructor(options: { fetch?: typeof fetch; now?: () => number; baseUrl?: string } = {}) {
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#now = options.now ?? Date.now;
    this.#baseUrl = options.baseUrl ?? '';
  }

  /**
   * Starts a read of `name` with the rider's `access` token (none for a public read).
   * Settles, never failing, once its reply (or its failure) is in.
   */
  start<N extends EndpointName>(
    name: N,
    arg: ArgsOf<N>,
    access: string | undefined,
  ): Promise<void> {
    const request = requestFor(name, arg, access, this.#baseUrl);
    if (request.method !== 'GET') throw new Error(`EarlyCalls: ${name} is not a read`);
    const key = keyOf('GET', request.url, request.headers.Authorization);
    this.#drop(key);
    const controller = new AbortController();
    const reply = this.#fetch(request.url, {
      method: 'GET',
      headers: request.headers,
      signal: controller.signal,
    });
    const timer = setTimeout(() => this.#drop(key, started), EARLY_CALL_TTL_MS);
    // Node (tests, tools): a pending drop does not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    const started: Started = { reply, at: this.#now(), controller, timer };
    this.#calls.set(key, started);
    return reply.then(
      () => undefined,
      // A failure is not kept for the page: its own call asks again.
      () => {
        if (this.#calls.get(key) === started) {
          this.#calls.delete(key);
          clearTimeout(timer);
        }
      },
    );
  }

  /** How many started calls wait to be taken (for tests and tools). */
  get pending(): number {
    return this.#calls.size;
  }

  /** Forgets the call started for `key` (only `which`, when given) and stops it. */
  #drop(key: string, which?: Started): void {
    const started = this.#calls.get(key);
    if (!started || (which && started !== which)) return;
    this.#calls.delete(key);
    clearTimeout(started.timer);
    started.controller.abort();
  }

  /** `fetch`, answering a request started early with its reply (once). */
  readonly fetch: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : undefined;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const authorization =
      authorizationOf(init) ?? request?.headers.get('authorization') ?? undefined;
    const key = keyOf(method, url, authorization);
    const started = method === 'GET' ? this.#calls.get(key) : undefined;
    if (!started) return this.#fetch(input, init);
    this.#calls.delete(key);
    clearTimeout(started.timer);
    if (this.#now() - started.at > EARLY_CALL_TTL_MS) {
      started.controller.abort();
      return this.#fetch(input, init);
    }
    const signal = init?.signal ?? request?.signal;
    if (!signal) return started.reply;
    // The caller's timeout or abort ends its wait, and the download with it (the body the
    // caller has not read yet included).
    return new Promise<Response>((resolve, reject) => {
      const abort = () => {
        started.controller.abort(signal.reason);
        reject(
          signal.reason instanceof Error
            ? signal.reason
            : new DOMException('Aborted', 'AbortError'),
        );
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      // Listened to past the headers: the body is read after them.
      started.reply.then(resolve, reject);
    });
  };
}
