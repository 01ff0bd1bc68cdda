import { originRoutes } from '@xoss/api-contract';

export interface ProxyUpstreams {
  /** The API replicas (host:port), load-balanced. */
  readonly api: readonly string[];
  /** Where the built apps and Storybook are served from (a CDN origin or a folder). */
  readonly staticRoot: string;
}

/**
 * An nginx server block built from the origin table of `@xoss/api-contract`: `/api` to the
 * API replicas, each app's prefixes to its built files with the app's `index.html` as the
 * fallback, `/storybook` to the Storybook build. `docs/deploy.md` shows its output.
 */
export function nginxConfig({ api, staticRoot }: ProxyUpstreams): string {
  const lines = [
    // Only a language tag may pick a page's translated copy (no path ever comes from a query).
    'map $arg_lang $site_lang {',
    '  "~^[A-Za-z]{2}(-[A-Za-z]{2})?$" $arg_lang;',
    '  default "none";',
    '}',
    '',
    'upstream xoss_api {',
    ...api.map((server) => `  server ${server};`),
    '  keepalive 32;',
    '}',
    '',
    'server {',
    '  listen 443 ssl http2;',
    '  server_name www.example.com;',
    '  client_max_body_size 40m;',
    `  root ${staticRoot};`,
    '  # The builds write .gz and .br copies of pages and scripts (scripts/precompress.ts).',
    '  gzip_static on;',
    '  # brotli_static on;  # with the ngx_brotli module',
    '',
  ];
  // Hashed build output never changes: cached for a year. Regex locations are tried in
  // order, so this one comes first.
  lines.push(
    '  location ~* ^/(storybook/)?assets/ {',
    '    add_header Cache-Control "public, max-age=31536000, immutable";',
    '    try_files $uri =404;',
    '  }',
  );
  // The home page is the site's prerendered index (in the `?lang=` language when asked).
  lines.push(
    '  location = / {',
    '    try_files /public-site/index.$site_lang.html /public-site/index.html =404;',
    '  }',
  );
  // Prefixes match on a segment boundary, as in the contract's `ownerOfPath`.
  for (const route of originRoutes) {
    const location = route.prefix === '/' ? 'location /' : `location ~ ^${route.prefix}(/|$)`;
    if (route.owner === 'api') {
      lines.push(
        `  ${location} {`,
        '    proxy_pass http://xoss_api;',
        '    proxy_http_version 1.1;',
        '    proxy_set_header Connection "";',
        '    proxy_set_header Host $host;',
        '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
        '    proxy_set_header X-Forwarded-Proto $scheme;',
        '    proxy_request_buffering off;',
        '    proxy_read_timeout 310s;',
        '  }',
      );
    } else if (route.owner === 'storybook') {
      lines.push(`  ${location} {`, '    try_files $uri $uri/ /storybook/index.html;', '  }');
    } else if (route.owner === 'public-site') {
      lines.push(
        `  ${location} {`,
        '    # public-site: its files, else the prerendered page, else its shell (the router shows it)',
        '    try_files $uri /public-site$uri/index.$site_lang.html /public-site$uri/index.html /public-site/shell.html;',
        '  }',
      );
    } else {
      lines.push(
        `  ${location} {`,
        `    # ${route.owner}: its files, else its index.html (the router shows the page)`,
        `    try_files $uri /${route.owner}/index.html;`,
        '  }',
      );
    }
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

// `node apps/api/src/http/proxyConfig.ts` prints the example with placeholder upstreams.
if (import.meta.main)
  process.stdout.write(
    nginxConfig({ api: ['10.0.0.11:8080', '10.0.0.12:8080'], staticRoot: '/srv/xoss/static' }),
  );
