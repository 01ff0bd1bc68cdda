/// <reference types="node" />
// Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every text file
// of a built app, once at build time. The server sends them as they are (@fastify/static's
// `preCompressed`), so a page load costs no compression work; the on-the-fly compression at
// brotli quality 4 stays for API replies only.
//
//   node scripts/precompress.ts <dist folder>...
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Files worth compressing: text that browsers fetch; source maps and binaries stay as they are. */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost (the server's threshold). */
const MIN_BYTES = 1024;

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) yield path;
  }
}

/** Compresses every text file under `dir`; returns how many files and bytes it wrote. */
export async function precompress(dir: string): Promise<{ files: number; bytes: number }> {
  const work: string[] = [];
  for await (const path of files(dir)) if ((await stat(path)).size >= MIN_BYTES) work.push(path);
  let bytes = 0;
  // A few at a time: brotli at quality 11 is CPU-bound, and CI has two cores.
  const next = async (): Promise<void> => {
    const path = work.pop();
    if (path === undefined) return;
    const source = await readFile(path);
    const [br, gz] = await Promise.all([
      brotli(source, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
      gzipAsync(source, { level: 9 }),
    ]);
    await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
    bytes += br.length + gz.length;
    return next();
  };
  const count = work.length;
  await Promise.all(Array.from({ length: 4 }, next));
  return { files: count, bytes };
}

if (import.meta.main) {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    console.error('usage: node scripts/precompress.ts <dist folder>...');
    process.exit(2);
  }
  for (const dir of dirs) {
    const { files: count, bytes } = await precompress(dir);
    console.log(`precompressed ${count} files in ${dir} (${(bytes / 1024).toFixed(0)} kB written)`);
  }
}
