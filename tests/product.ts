/// <reference types="node" />
import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { WAIT_GUARD_MS } from '../vitest.guards.ts';

// The whole product for the apps' end-to-end tests, started the way `pnpm start` runs it: the
// API's own process serving both built apps (and Storybook when built) on one loopback port,
// with its embedded database in a fresh folder and the demo data. A process, not an import,
// so no app's tests import another app (docs/architecture.md).

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningProduct {
  /** Where it answers, e.g. `http://127.0.0.1:40123`. */
  readonly base: string;
  /** The demo rider's sign-in, as the ready line announces it. */
  readonly demo: { readonly email: string; readonly password: string };
  /** Its data folder (`DATA_DIR`): without SMTP, its mails are files in `outbox/` there. */
  readonly dataDir: string;
  /** Everything the process printed so far (for a failing test's message). */
  output(): string;
  /** Stops the process (SIGTERM: requests in flight finish) and removes its data. */
  close(): Promise<void>;
}

const READY = /XOSS is ready at (\S+?)\/?(?:; sign in as (\S+) \/ (\S+))?\s*$/m;

/**
 * Starts the product (`pnpm build` first; `pnpm test` does) with `env` added to the
 * environment, e.g. `{ ACCESS_TOKEN_TTL_S: '4' }`. Resolves once it listens with its demo
 * data seeded.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  for (const app of ['athlete-portal', 'public-site'])
    if (!existsSync(join(repoRoot, 'apps', app, 'dist', 'index.html')))
      throw new Error(`apps/${app}/dist is missing: run \`pnpm build\` (pnpm test does)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'xoss-product-'));
  const template = await templateData();
  if (template)
    cpSync(template, dataDir, { recursive: true, filter: (from) => !from.endsWith(MARK) });
  return launch(dataDir, env);
}

/** The file that says a template data folder is whole; the process that makes it, meanwhile. */
const MARK = '.template-ready';
const MAKER = '.template-maker';

/**
 * A data folder of the product after its first start (database migrated, demo rider and 30
 * demo rides imported and analysed: about 30 s of CPU), made once a test run (the workers of
 * one Vitest run share its process id as their parent) and copied by every later start.
 * Undefined when it cannot be had: that start makes its own data, as `pnpm start` does.
 */
async function templateData(): Promise<string | undefined> {
  const dir = join(tmpdir(), `xoss-product-template-${process.ppid}`);
  const ready = join(dir, MARK);
  try {
    mkdirSync(dir);
  } catch {
    // Another worker makes it: wait for its mark, or for its maker to be gone without one.
    for (;;) {
      if (existsSync(ready)) return dir;
      const maker = Number(readFileSync(join(dir, MAKER), { encoding: 'utf8', flag: 'a+' }));
      if (maker > 0 && !alive(maker)) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  writeFileSync(join(dir, MAKER), String(process.pid));
  removeStaleTemplates();
  try {
    const made = await launch(dir, {}, { keepData: true });
    await made.close();
    writeFileSync(ready, '');
    return dir;
  } catch {
    return undefined;
  } finally {
    rmSync(join(dir, MAKER), { force: true });
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Templates of earlier runs whose Vitest is gone. */
function removeStaleTemplates() {
  for (const name of readdirSync(tmpdir())) {
    const owner = /^xoss-product-template-(\d+)$/.exec(name);
    if (owner && !alive(Number(owner[1])))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

async function launch(
  dataDir: string,
  env: Record<string, string>,
  options: { keepData?: boolean } = {},
): Promise<RunningProduct> {
  const child: ChildProcess = spawn(
    process.execPath,
    [join(repoRoot, 'apps', 'api', 'src', 'main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // The browser tests click through every screen in nine languages far faster than a
        // rider can; the request limits themselves are tested in apps/api/test/fairShareSuite.ts.
        REQUESTS_PER_RIDER: '1000',
        REQUESTS_PER_ADDRESS: '1000',
        PASSWORD_HASHES_PER_SECOND: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  // Until it says it is ready or it ends: no wall-clock budget (a loaded machine may take
  // minutes); one that never says so is stuck, and the test's hang guard reports it.
  let ready = READY.exec(output);
  while (!ready) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await close();
      throw new Error(`the product did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    ready = READY.exec(output);
  }
  // The line says localhost for people; tests go to the address it bound.
  const url = new URL(ready[1]!);
  url.hostname = '127.0.0.1';
  return {
    base: url.origin,
    demo: { email: ready[2] ?? '', password: ready[3] ?? '' },
    dataDir,
    output: () => output,
    close,
  };
}

/**
 * Debian's Chromium (CHROME_PATH to use another), headless, through playwright-core. Every
 * page and context it opens waits up to the wait guard (vitest.guards.ts) for an action, a
 * navigation or an element, not Playwright's 30 s: a story's first render took longer than
 * that in a CI run with two other browser files beside it.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_GUARD_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.context().setDefaultTimeout(WAIT_GUARD_MS);
    return page;
  };
  return browser;
}
