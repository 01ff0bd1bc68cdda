// Reproduces the V8 fault that ended CI runs (README, "The V8 fault in the test forks"):
// several processes, each opening and closing embedded databases on threads of their own as
// the API suites do, counted per process: exited cleanly or killed by V8.
//
//   node apps/api/bench/wasmChurn.ts [--processes 4] [--rounds 40] [--threads 3] [-- <node flags>]
//
// The node flags after `--` go to every child (`--no-wasm-code-gc`, `--stress-wasm-code-gc`,
// ...), so one run compares a setting against the default under the same load.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dumpEmbedded, openDatabase } from '../src/platform/db/db.ts';

const split = process.argv.indexOf('--');
const own = split < 0 ? process.argv.slice(2) : process.argv.slice(2, split);
const nodeFlags = split < 0 ? [] : process.argv.slice(split + 1);
const { values } = parseArgs({
  args: own,
  options: {
    processes: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '40' },
    threads: { type: 'string', default: '3' },
    child: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const threads = Number(values.threads);

/** One process: `threads` loops, each opening, using and closing a database `rounds` times. */
async function child(): Promise<void> {
  // From a dump of a migrated database, as the suites open theirs (harness.ts).
  const template = await openDatabase();
  const dump = await dumpEmbedded(template);
  await template.close();
  // HTTP on the main thread meanwhile, as the suites' requests are: undici parses replies with
  // llhttp, WebAssembly too, whose import wrappers V8 shares with the databases' threads.
  const server = createServer((_request, response) => response.end('x'.repeat(2000)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let churning = true;
  const requests = (async () => {
    while (churning) await (await fetch(`http://127.0.0.1:${port}/`)).text();
  })();
  // Each thread's loop on its own: one database closes while another opens or queries.
  await Promise.all(
    Array.from({ length: threads }, async () => {
      for (let round = 0; round < rounds; round++) {
        const db = await openDatabase({ loadDataDir: dump });
        for (let i = 0; i < 50; i++)
          await db.query('SELECT $1::int + count(*) AS n FROM pg_class', [i]);
        await db.close();
      }
    }),
  );
  churning = false;
  await requests;
  server.close();
}

async function parent(): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const started = performance.now();
  const outcomes = await Promise.all(
    Array.from(
      { length: Number(values.processes) },
      () =>
        new Promise<{ code: number | null; signal: string | null; fault: string }>((resolve) => {
          const proc = spawn(
            process.execPath,
            [
              ...nodeFlags,
              script,
              '--child',
              '--rounds',
              String(rounds),
              '--threads',
              String(threads),
            ],
            { stdio: ['ignore', 'ignore', 'pipe'] },
          );
          let stderr = '';
          proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          proc.on('exit', (code, signal) =>
            resolve({
              code,
              signal,
              fault: /Check failed: .*|Fatal error.*/.exec(stderr)?.[0] ?? '',
            }),
          );
        }),
    ),
  );
  const crashed = outcomes.filter((o) => o.code !== 0);
  console.log(
    `node ${process.version} flags [${nodeFlags.join(' ')}]: ${crashed.length} of ${outcomes.length} processes crashed ` +
      `(${rounds} rounds x ${threads} databases each) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const o of crashed) console.log(`  exit ${o.code ?? o.signal}: ${o.fault}`);
}

await (values.child ? child() : parent());
