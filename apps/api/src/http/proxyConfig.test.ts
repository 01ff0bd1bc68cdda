import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { originRoutes, ownerOfPath } from '@xoss/api-contract';
import { describe, expect, it } from 'vitest';
import { nginxConfig } from './proxyConfig.ts';

const docs = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  '..',
  'docs',
  'deploy.md',
);
const example = { api: ['10.0.0.11:8080', '10.0.0.12:8080'], staticRoot: '/srv/xoss/static' };

describe('the reverse-proxy example', () => {
  it('has a location for every prefix of the origin table, with its owner', () => {
    const config = nginxConfig(example);
    for (const route of originRoutes) {
      const location = route.prefix === '/' ? 'location / {' : `location ~ ^${route.prefix}(/|$) {`;
      expect(config.indexOf(location), route.prefix).toBeGreaterThan(-1);
      const block = config.slice(config.indexOf(location));
      const body = block.slice(0, block.indexOf('  }'));
      if (route.owner === 'api') expect(body).toContain('proxy_pass http://xoss_api;');
      else if (route.owner === 'storybook') expect(body).toContain('/storybook/index.html');
      // The site: the prerendered page of the path, else its shell.
      else if (route.owner === 'public-site')
        expect(body).toContain('/public-site$uri/index.html /public-site/shell.html;');
      else expect(body).toContain(`/${route.owner}/index.html`);
    }
    expect(config).toContain(
      'try_files /public-site/index.$site_lang.html /public-site/index.html =404;',
    );
    expect(config).toContain('map $arg_lang $site_lang {');
    expect(config).toContain('server 10.0.0.12:8080;');
    // The same segment rule as the server: look-alike prefixes stay with the public site.
    expect(ownerOfPath('/dashboards')).toBe('public-site');
    expect(config).toContain('location ~ ^/dashboard(/|$)');
  });

  it('is shown in docs/deploy.md exactly as generated', () => {
    const markdown = readFileSync(docs, 'utf8');
    const block = /<!-- proxy:start -->\s*```nginx\n([\s\S]*?)```\s*<!-- proxy:end -->/.exec(
      markdown,
    );
    expect(block?.[1]).toBe(nginxConfig(example));
  });
});
