import { pathFor, routes, type ArgsOf, type EndpointName } from '@xoss/api-contract/routes';

/** The header that names the product to the API (spec 7). */
export const PRODUCT_HEADER = 'X-Xoss-Product';
export const PRODUCT_NAME = 'xoss-web';

/** Endpoints whose request never carries the rider's token. */
export const TOKENLESS: ReadonlySet<EndpointName> = new Set(['login', 'refresh', 'logout']);

/** An endpoint's HTTP request: where it goes and what it carries. */
export interface ApiRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: BodyInit;
}

/**
 * The request that calls `name` with `arg`: the one place that turns an endpoint's arguments
 * into a URL, headers and body, for the transport and for calls started before it exists
 * (`EarlyCalls`), so both send the same bytes.
 */
export function requestFor<N extends EndpointName>(
  name: N,
  arg: ArgsOf<N>,
  access: string | undefined,
  baseUrl = '',
  extraHeaders: Record<string, string> = {},
): ApiRequest {
  const parts = (arg ?? {}) as {
    params?: Record<string, string | number>;
    query?: Record<string, unknown>;
    body?: unknown;
  };
  let url = baseUrl + pathFor(name, parts.params ?? {});
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parts.query ?? {}))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      search.set(key, String(value));
    // A list (the streams to send) travels comma-separated, as the API reads it.
    else if (Array.isArray(value)) search.set(key, value.join(','));
  if (search.size > 0) url += `?${search.toString()}`;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    [PRODUCT_HEADER]: PRODUCT_NAME,
    ...extraHeaders,
  };
  // Public endpoints take the token too when there is one (an article's `liked`).
  if (access && !TOKENLESS.has(name)) headers.Authorization = `Bearer ${access}`;
  let body: BodyInit | undefined;
  if (parts.body instanceof FormData) body = parts.body;
  else if (parts.body !== undefined) {
    body = JSON.stringify(parts.body);
    headers['Content-Type'] = 'application/json';
  }
  return { url, method: routes[name].method, headers, ...(body === undefined ? {} : { body }) };
}
