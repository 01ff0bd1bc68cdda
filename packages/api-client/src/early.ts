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

/**
 * Reads (GET calls) started before the application has loaded: an app's small entry starts
 * the first page's calls with the navigation, and the transport, given `fetch` as its own,
 * takes each reply when the page asks for the same request, the same URL with the same
 * token, instead of asking again. A reply is taken once; one not taken within
 * `EARLY_CALL_TTL_MS` is forgotten (the page asks for its own). Anything else is fetched.
 */
export class EarlyCalls {
  readonly #fetch: typeof fetch;
  readonly #now: () => number;
  readonly #calls = new Map<string, { reply: Promise<Response>; at: number }>();

  constructor(options: { fetch?: typeof fetch; now?: () => number } = {}) {
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#now = options.now ?? Date.now;
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
    const request = requestFor(name, arg, access);
    if (request.method !== 'GET') throw new Error(`EarlyCalls: ${name} is not a read`);
    const reply = this.#fetch(request.url, { method: 'GET', headers: request.headers });
    this.#calls.set(keyOf('GET', request.url, request.headers.Authorization), {
      reply,
      at: this.#now(),
    });
    // Not taken, a failure is nobody's: the page's own call will meet it again.
    return reply.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Whether a started call waits to be taken (for tests and tools). */
  get pending(): number {
    return this.#calls.size;
  }

  /** `fetch`, answering a request started early with its reply (once). */
  readonly fetch: typeof fetch = (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const key = keyOf(method, url, authorizationOf(init));
    const started = method === 'GET' ? this.#calls.get(key) : undefined;
    if (started) this.#calls.delete(key);
    if (!started || this.#now() - started.at > EARLY_CALL_TTL_MS) return this.#fetch(input, init);
    const signal = init?.signal;
    if (!signal) return started.reply;
    // The caller's timeout or abort still ends its wait.
    return new Promise<Response>((resolve, reject) => {
      const abort = () =>
        reject(
          signal.reason instanceof Error
            ? signal.reason
            : new DOMException('Aborted', 'AbortError'),
        );
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      started.reply.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
    });
  };
}
