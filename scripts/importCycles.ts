// The repository's import graph, file by file: `pnpm test` fails when files import each
// other, directly or round a longer loop (tests/importCycles.test.ts). Every relative
// specifier counts: static imports and re-exports, `import type`, dynamic `import()`.
// `node scripts/importCycles.ts` prints the loops.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|tsx|mts)$/;
const SPECIFIER =
  /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1|\bexport\s+\*\s+from\s+(['"])(\.{1,2}\/[^'"]+)\3/g;

/** The source files git knows (packages, apps, scripts, tests), repository-relative. */
function sources(root: string): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'))
    .filter((file) => existsSync(join(root, file)));
}

/** Each file's relative imports that resolve to another source file. */
function importGraph(root: string): Map<string, Set<string>> {
  const files = sources(root);
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[2] ?? match[4]!;
      const target = normalize(join(dirname(file), specifier));
      if (known.has(target) && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The loops of the graph: each strongly connected set of two or more files, sorted. */
export function importCycles(root: string): string[][] {
  const graph = importGraph(root);
  // Tarjan's strongly connected components, iteratively (deep graphs, no recursion limit).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: string[]; next: number }[] = [];
    const visit = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])], next: 0 });
    };
    visit(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++]!;
        if (!index.has(to)) visit(to);
        else if (onStack.has(to))
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const cycles = importCycles(root);
  for (const cycle of cycles) console.log(cycle.join(' <-> '));
  process.exitCode = cycles.length > 0 ? 1 : 0;
}
