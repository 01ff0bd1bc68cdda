import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumped } from '../scripts/dependentBumps.ts';

// The release as another team meets it (docs/packages.md): every package published by the
// release command's publish step to a real npm registry (Verdaccio, on a loopback port with
// a throwaway storage), then installed from it with plain npm into an empty project that
// points only the @xoss scope at it, imported from Node, its examples (docs/examples/)
// run and type-checked under `nodenext` and `bundler` resolution.

const root = fileURLToPath(new URL('..', import.meta.url));
const packages = [
  'data-fields',
  'workout-stats',
  'activity-files',
  'api-contract',
  'api-client',
  'i18n',
  'ui-kit',
] as const;
/** Most bytes each packed tarball may have (`npm pack`'s `size`, gzipped): about 1.25x the
 * first release's. i18n carries nine catalogues twice, as JSON and compiled. workout-stats
 * was raised from 145 kB when it grew to 151 kB with the cleaning, nested climbs, intervals
 * snapped to laps and pace load (its source and maps ship with it, for debugging). */
const budgets: Record<(typeof packages)[number], number> = {
  'data-fields': 80_000,
  'workout-stats': 175_000,
  'activity-files': 205_000,
  'api-contract': 125_000,
  'api-client': 95_000,
  i18n: 700_000,
  'ui-kit': 180_000,
};
const examples = readdirSync(join(root, 'docs/examples')).filter((file) => file.endsWith('.ts'));

let work: string;
let registry: ChildProcess | undefined;
let url: string;
let consumer: string;
let published: string;
/** The npm user config holding the publisher's token for the registry. */
let userconfig: string;

/** The workspace's hoisted dependency links that point outside it (into a clone, say). */
function linksLeavingWorkspace(): string[] {
  const hoisted = join(root, 'node_modules/.pnpm/node_modules');
  return readdirSync(hoisted, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isSymbolicLink())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((link) => !resolve(dirname(link), readlinkSync(link)).startsWith(join(root, '/')));
}

/** An environment without any registry setting of the machine's. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^(npm|pnpm)_config_(registry|userconfig)$|^@xoss:registry$/i.test(key)) delete env[key];
  return { ...env, ...extra };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Until Verdaccio answers or exits: a start on a loaded machine may take a while. */
async function waitForRegistry(): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}-/ping`)).ok) return;
    } catch {
      // not listening yet
    }
    if (registry?.exitCode !== null) throw new Error('Verdaccio exited at start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A registry document, on a connection of its own (Verdaccio closes idle kept-alive ones). */
function metadata(path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(`${url}${path}`, { agent: false }, (reply) => {
      let body = '';
      reply.setEncoding('utf8');
      reply.on('data', (chunk: string) => (body += chunk));
      reply.on('end', () =>
        reply.statusCode === 200
          ? resolve(JSON.parse(body))
          : reject(new Error(`${path}: ${reply.statusCode}`)),
      );
    }).on('error', reject);
  });
}

function run(command: string, args: string[], cwd: string, env = cleanEnv()): string {
  try {
    return execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, {
      cause: error,
    });
  }
}

/** npm `install` or `update` in the consumer's project, quietly (no audit, no funding notes). */
const npmIn = (cwd: string, command: 'install' | 'update', specs: string[]) =>
  run('npm', [command, '--no-audit', '--no-fund', '--loglevel=error', ...specs], cwd);

const version = (name: string) =>
  (
    JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

beforeAll(async () => {
  run(
    'pnpm',
    ['turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only'],
    root,
  );
  work = mkdtempSync(join(tmpdir(), 'xoss-release-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  writeFileSync(
    join(work, 'config.yaml'),
    [
      `storage: ${join(work, 'storage')}`,
      'auth:',
      `  htpasswd: { file: ${join(work, 'htpasswd')}, max_users: 1 }`,
      'packages:',
      "  '@xoss/*': { access: $all, publish: $authenticated }",
      '  "**": { access: $all }',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  const bin = join(root, 'node_modules/verdaccio/bin/verdaccio');
  registry = spawn(
    process.execPath,
    [bin, '--config', join(work, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
    { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForRegistry();

  // A user of that registry, and its token in an npm user config of its own.
  const user = await fetch(`${url}-/user/org.couchdb.user:release`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'release', password: 'release-test-only' }),
  });
  const { token } = (await user.json()) as { token: string };
  userconfig = join(work, 'publisher.npmrc');
  writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=${token}\n`);

  // The release command's publish step, told the registry the npm way; no git tags here.
  published = run(
    process.execPath,
    ['scripts/release.ts', 'publish', '--no-git-tag'],
    root,
    cleanEnv({ NPM_CONFIG_REGISTRY: url, NPM_CONFIG_USERCONFIG: userconfig }),
  );

  // Another team's empty project: only the @xoss scope comes from this registry.
  consumer = join(work, 'consumer');
  mkdirSync(join(consumer, 'examples'), { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  writeFileSync(join(consumer, '.npmrc'), `@xoss:registry=${url}\n`);
  const started = Date.now();
  npmIn(consumer, 'install', [
    ...packages.map((name) => `@xoss/${name}@${version(name)}`),
    '@types/react@19',
    '@types/react-dom@19',
  ]);
  console.log(`npm install of the seven packages and their peers: ${Date.now() - started} ms`);
  for (const file of examples)
    copyFileSync(join(root, 'docs/examples', file), join(consumer, 'examples', file));
});

afterAll(async () => {
  if (registry && registry.exitCode === null) {
    const exited = new Promise((resolve) => registry!.once('exit', resolve));
    registry.kill('SIGTERM');
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('a release installed by another team', () => {
  it('publishes every package to the registry named by NPM_CONFIG_REGISTRY', async () => {
    expect(published).toContain(`Publishing to ${url}`);
    for (const name of packages) {
      const document = (await metadata(`@xoss%2f${name}`)) as {
        versions: Record<
          string,
          Record<string, unknown> & { dependencies?: Record<string, string> }
        >;
      };
      const manifest = document.versions[version(name)];
      expect(manifest, name).toBeDefined();
      // pnpm turned the workspace ranges into real ones.
      expect(JSON.stringify(manifest!.dependencies ?? {})).not.toContain('workspace:');
      // Where it comes from, where to ask, what it runs on, what a bundler may drop.
      const about = manifest as {
        repository?: { type?: string; directory?: string };
        homepage?: string;
        bugs?: { url?: string };
        engines?: { node?: string };
      };
      expect(about.repository, name).toMatchObject({ type: 'git', directory: `packages/${name}` });
      expect(about.homepage ?? '', name).toMatch(/^https:\/\//);
      expect(about.bugs?.url ?? '', name).toMatch(/^https:\/\//);
      expect(about.engines?.node ?? '', name).toMatch(/^>=\d+\.\d+/);
      expect(manifest!.sideEffects, name).toBeDefined();
      // The published entry points name built files only: the workspace's condition for
      // its own TypeScript sources stays at home.
      const exports = JSON.stringify(manifest!.exports);
      expect(exports, name).not.toContain('@xoss/source');
      expect(exports, name).not.toMatch(/(?<!\.d)\.tsx?"/);
    }
  });

  it('installs with plain npm and imports from Node', () => {
    const entries = [...packages, 'api-contract/routes', 'i18n/react'];
    const script = `for (const entry of ${JSON.stringify(entries)}) {
      const module = await import('@xoss/' + entry);
      if (Object.keys(module).length === 0) throw new Error(entry + ' exports nothing');
    }`;
    run(process.execPath, ['--input-type=module', '-e', script], consumer);
  });

  it.each(examples)('runs the example docs/examples/%s in Node', (file) => {
    expect(run(process.execPath, [join('examples', file)], consumer).trim()).not.toBe('');
  });

  it.each(['nodenext', 'bundler'] as const)(
    'type-checks the examples under %s resolution',
    (resolution) => {
      const compilerOptions = {
        ...(resolution === 'nodenext'
          ? { module: 'nodenext', moduleResolution: 'nodenext' }
          : { module: 'preserve', moduleResolution: 'bundler' }),
        target: 'es2023',
        lib: ['es2023', 'dom'],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      };
      const config = `tsconfig.${resolution}.json`;
      writeFileSync(
        join(consumer, config),
        JSON.stringify({ compilerOptions, include: ['examples/*.ts'] }),
      );
      run(join(root, 'node_modules/.bin/tsc'), ['-p', config], consumer);
    },
  );

  it('ships dist, types, README, API report, CHANGELOG and licence, and no tests, stories or fixtures', () => {
    for (const name of packages) {
      const files = filesUnder(join(consumer, 'node_modules/@xoss', name));
      expect(files, name).toEqual(
        expect.arrayContaining([
          'dist/index.js',
          'dist/index.d.ts',
          'README.md',
          // What the README links for every export's type.
          'api-report.md',
          'CHANGELOG.md',
          'LICENSE',
        ]),
      );
      expect(
        files.filter((file) =>
          /\.test\.|\.test-d\.|\.stories\.|testing\/|fixture|^test\//.test(file),
        ),
        name,
      ).toEqual([]);
    }
  });

  it('keeps each tarball within its budget', () => {
    const packed = JSON.parse(
      run(
        'npm',
        ['pack', '--dry-run', '--json', ...packages.map((name) => `./packages/${name}`)],
        root,
      ),
    ) as { name: string; size: number; unpackedSize: number; entryCount: number }[];
    for (const { name, size, unpackedSize, entryCount } of packed) {
      const short = name.replace('@xoss/', '') as (typeof packages)[number];
      console.log(
        `${name}: ${(size / 1000).toFixed(1)} kB packed, ${(unpackedSize / 1000).toFixed(1)} kB unpacked, ${entryCount} files (budget ${budgets[short] / 1000} kB)`,
      );
    }
    for (const { name, size } of packed)
      expect(size, name).toBeLessThanOrEqual(
        budgets[name.replace('@xoss/', '') as keyof typeof budgets],
      );
    expect(packed.map(({ name }) => name).sort()).toEqual(
      packages.map((name) => `@xoss/${name}`).sort(),
    );
  });

  /** A consumer's browser bundle of `contents`, minified, with what went into it. */
  const bundleFor = (contents: string, external: string[] = []) =>
    build({
      stdin: { contents, resolveDir: consumer },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      external,
    });

  it('bundles @xoss/data-fields for a browser without React, OpenLayers or zod', async () => {
    const result = await bundleFor(
      "import * as fields from '@xoss/data-fields'; console.log(fields);",
    );
    const inputs = Object.keys(result.metafile.inputs).filter((input) => input !== '<stdin>');
    expect(inputs.length).toBeGreaterThan(0);
    expect(inputs.filter((input) => !input.includes('node_modules/@xoss/data-fields/'))).toEqual(
      [],
    );
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/react|from\s*["']ol|zod/i);
    console.log(`@xoss/data-fields in a browser bundle: ${(code.length / 1000).toFixed(1)} kB`);
  });
  // Import only what you use: a single import bundles the module it needs, not the package.
  const charts = /node_modules\/(ol|d3-shape|d3-path|@visx)\//;
  it.each([
    { name: 'Loading', from: '@xoss/ui-kit', inputs: charts, code: undefined, most: 2_000 },
    { name: 'Navbar', from: '@xoss/ui-kit', inputs: charts, code: undefined, most: 6_000 },
    // No field icon (their SVG paths) with the duration format.
    {
      name: 'formatDuration',
      from: '@xoss/data-fields',
      inputs: undefined,
      code: /<path/,
      most: 1_000,
    },
  ])('bundles $name from $from alone', async ({ name, from, inputs, code, most }) => {
    const result = await bundleFor(
      `import { ${name} } from '${from}'; console.log(${name});`,
      // What any React app has already.
      ['react', 'react-dom', 'react/jsx-runtime', 'react-intl'],
    );
    const text = result.outputFiles[0]!.text;
    console.log(`${name} from ${from}: ${(text.length / 1000).toFixed(1)} kB minified`);
    // The modules whose code is in the bundle (a module read and dropped has 0 bytes there).
    const bundled = Object.values(result.metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(([, input]) => input.bytesInOutput > 0)
        .map(([path]) => path),
    );
    if (inputs) expect(bundled.filter((path) => inputs.test(path))).toEqual([]);
    if (code) expect(text).not.toMatch(code);
    expect(text.length).toBeLessThan(most);
  });
});

describe('the next release, as `pnpm release` makes it', () => {
  // A clone of this commit (the workspace's dependencies linked in, not installed again), a
  // breaking change of @xoss/i18n pending, and `node scripts/release.ts` with no step:
  // version, commit, build, publish, to the registry above; then the team updates.
  let clone: string;
  let output: string;
  const at = (name: string) =>
    (
      JSON.parse(readFileSync(join(clone, 'packages', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  const git = (...args: string[]) => run('git', args, clone).trim();

  beforeAll(() => {
    clone = join(work, 'clone');
    run('git', ['clone', '--quiet', root, clone], work);
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'));
    for (const name of packages)
      if (existsSync(join(root, 'packages', name, 'node_modules')))
        cpSync(
          join(root, 'packages', name, 'node_modules'),
          join(clone, 'packages', name, 'node_modules'),
          { recursive: true, verbatimSymlinks: true },
        );
    // The clone's node_modules is the workspace's own (a link): pnpm 12 installs before
    // `pnpm exec` and `pnpm run` when the manifests changed (`verifyDepsBeforeRun`, default
    // `install`), and after the version bump that install rewrote the workspace's 791 hoisted
    // links to point into the clone, dangling once it was deleted. Said in the clone's
    // workspace file, it holds for every pnpm the release starts (turbo's too).
    writeFileSync(
      join(clone, 'pnpm-workspace.yaml'),
      `${readFileSync(join(clone, 'pnpm-workspace.yaml'), 'utf8')}\nverifyDepsBeforeRun: false\n`,
    );
    writeFileSync(
      join(clone, '.changeset', 'release-test-i18n.md'),
      "---\n'@xoss/i18n': minor\n---\n\nBREAKING: a message id renamed (the release test's change).\n",
    );
    const identity = { name: 'Release test', email: 'release-test@example.com' };
    git('config', 'user.name', identity.name);
    git('config', 'user.email', identity.email);
    git('add', '--all');
    git('commit', '--quiet', '--message', 'A breaking change of @xoss/i18n');
    output = run(
      process.execPath,
      ['scripts/release.ts'],
      clone,
      cleanEnv({
        NPM_CONFIG_REGISTRY: url,
        NPM_CONFIG_USERCONFIG: userconfig,
      }),
    );
    expect(linksLeavingWorkspace()).toEqual([]);
  });

  it('gives a dependent of a breaking release a breaking bump of its own, not a patch', () => {
    const i18n = at('i18n');
    expect(i18n).toBe(bumped(version('i18n'), 'minor'));
    // ui-kit depends on i18n: its own minor, with the reason in its changelog.
    expect(at('ui-kit')).toBe(bumped(version('ui-kit'), 'minor'));
    const log = readFileSync(join(clone, 'packages/ui-kit/CHANGELOG.md'), 'utf8');
    expect(log).toMatch(
      new RegExp(`BREAKING: depends on [^\\n]*@xoss/i18n ${i18n.replaceAll('.', '\\.')}\\b`),
    );
    expect(output).toContain('@xoss/ui-kit: minor, as it depends on');
  });

  it("commits the versions and tags that commit, the release's own", () => {
    expect(git('log', '-1', '--format=%s')).toMatch(/^Release @xoss\/activity-files@/);
    expect(git('status', '--porcelain')).toBe('');
    const tags = git('tag', '--points-at', 'HEAD').split('\n');
    expect(tags).toEqual(
      expect.arrayContaining([`@xoss/i18n@${at('i18n')}`, `@xoss/ui-kit@${at('ui-kit')}`]),
    );
    // Each one the version of this commit; none left on the commit before.
    for (const tag of tags)
      expect(packages.map((name) => `@xoss/${name}@${at(name)}`)).toContain(tag);
    expect(git('tag', '--points-at', 'HEAD~1')).toBe('');
  });

  it('reaches a team that updates, and not one that stays on the old range', async () => {
    const document = (await metadata('@xoss%2fui-kit')) as {
      versions: Record<string, { dependencies?: Record<string, string> }>;
    };
    expect(document.versions[at('ui-kit')]?.dependencies?.['@xoss/i18n']).toBe(`^${at('i18n')}`);
    // The caret of the first release keeps the team on it: no breaking release unasked.
    npmIn(consumer, 'update', ['@xoss/ui-kit', '@xoss/i18n']);
    const installed = (name: string) =>
      (
        JSON.parse(
          readFileSync(join(consumer, 'node_modules/@xoss', name, 'package.json'), 'utf8'),
        ) as { version: string }
      ).version;
    expect(installed('ui-kit')).toBe(version('ui-kit'));
    // Asked for, the new release comes with the i18n it needs, and imports.
    npmIn(consumer, 'install', [`@xoss/ui-kit@${at('ui-kit')}`, `@xoss/i18n@${at('i18n')}`]);
    expect(installed('ui-kit')).toBe(at('ui-kit'));
    expect(installed('i18n')).toBe(at('i18n'));
    run(process.execPath, ['--input-type=module', '-e', "await import('@xoss/ui-kit')"], consumer);
  });
});
