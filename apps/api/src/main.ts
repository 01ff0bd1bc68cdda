import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from './server.ts';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';

const server = await buildServer({
  logger: process.env.LOG_LEVEL !== 'silent',
  staticRoots: {
    publicSite: join(repoRoot, 'apps', 'public-site', 'dist'),
    athletePortal: join(repoRoot, 'apps', 'athlete-portal', 'dist'),
    storybook: join(repoRoot, 'storybook-static'),
  },
});

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.log.info(`${signal}: closing`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await server.listen({ port, host });
console.log(`XOSS is running at http://${host === '127.0.0.1' ? 'localhost' : host}:${port}/`);
