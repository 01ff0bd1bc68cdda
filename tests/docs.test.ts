import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every reference a comment or a README makes to the documentation resolves to a file of
// the repository, and to a heading or item of it (the forms are listed in docs/README.md).

const root = fileURLToPath(new URL('..', import.meta.url));
const self = relative(root, fileURLToPath(import.meta.url));

/** The repository's text files that may cite the docs: sources, styles, pages, Markdown. */
const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => /\.(ts|tsx|js|mjs|cjs|css|html|md)$/.test(file))
  .filter((file) => !/(^|\/)CHANGELOG\.md$/.test(file) && file !== self)
  .filter((file) => existsSync(join(root, file)));

const text = (file: string) => readFileSync(join(root, file), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

const headings = (file: string) =>
  new Set(
    [...text(file).matchAll(/^#{1,6}\s+(.+)$/gm)].map((match) => slug(match[1]!.replace(/`/g, ''))),
  );

/** Each match of `pattern` in the files, with where it is. */
function citations(pattern: RegExp): { where: string; match: RegExpMatchArray }[] {
  const found: { where: string; match: RegExpMatchArray }[] = [];
  for (const file of files) {
    const lines = text(file).split('\n');
    lines.forEach((line, index) => {
      for (const match of line.matchAll(pattern))
        found.push({ where: `${file}:${index + 1}`, match });
    });
  }
  return found;
}

const product = 'docs/product.md';
const security = 'docs/security.md';

describe('references to the documentation', () => {
  it('never point outside the repository (../shared)', () => {
    const outside = citations(/\.\.\/shared\b|\bshared\/(?:spec|design)\//g).map(
      ({ where }) => where,
    );
    expect(outside).toEqual([]);
  });

  it('cite sections of the product page that exist ("spec N")', () => {
    const sections = new Set(
      [...text(product).matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])),
    );
    const found = citations(/\b[Ss]pec (\d+)\b/g);
    expect(found.length).toBeGreaterThan(100);
    const missing = found
      .filter(({ match }) => !sections.has(Number(match[1])))
      .map(({ where, match }) => `${where}: ${match[0]}`);
    expect(missing).toEqual([]);
  });

  it('cite items of the security checklist that exist ("security N", "security N-M, K")', () => {
    const items = new Set(
      [...text(security).matchAll(/^(\d+)\. \*\*/gm)].map((match) => Number(match[1])),
    );
    const found = citations(/\bsecurity(?:\.md)? (\d+(?:\s*(?:-|–|,)\s*\d+)*)/g);
    expect(found.length).toBeGreaterThan(5);
    const missing: string[] = [];
    for (const { where, match } of found)
      for (const part of match[1]!.split(',')) {
        const [from, to = from] = part.split(/-|–/).map((n) => Number(n.trim()));
        for (let item = from!; item <= to!; item++)
          if (!items.has(item)) missing.push(`${where}: security ${item}`);
      }
    expect(missing).toEqual([]);
  });

  it('name files of docs/ that exist, and headings of them that exist', () => {
    const broken: string[] = [];
    for (const { where, match } of citations(/(?<![\w/.-])docs\/([\w./-]*\w)(?:#([\w-]+))?/g)) {
      const file = `docs/${match[1]}`;
      if (!existsSync(join(root, file))) broken.push(`${where}: ${match[0]}`);
      else if (match[2] && !headings(file).has(match[2])) broken.push(`${where}: ${match[0]}`);
    }
    // Bare page names (`api.md`) mean the pages of docs/.
    for (const { where, match } of citations(
      /(?<![\w/.-])(api|architecture|security|product|deploy|style|toolchain)\.md\b/g,
    ))
      if (!existsSync(join(root, 'docs', match[0]))) broken.push(`${where}: ${match[0]}`);
    expect(broken).toEqual([]);
  });

  it('link between the docs pages to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of files.filter((name) => name.startsWith('docs/'))) {
      for (const match of text(file).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const linked =
          path === '' ? file : relative(root, resolve(dirname(join(root, file)), path));
        if (!existsSync(join(root, linked))) broken.push(`${file}: ${target}`);
        else if (anchor && !headings(linked).has(anchor)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('have a page for each number the code cites: product sections 1-9, security items 1 on, without gaps', () => {
    const sections = [...text(product).matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1]));
    expect(sections).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const items = [...text(security).matchAll(/^(\d+)\. \*\*/gm)].map((match) => Number(match[1]));
    expect(items.length).toBeGreaterThanOrEqual(30);
    expect(items).toEqual(Array.from({ length: items.length }, (_, index) => index + 1));
  });

  it("list each part's imports in docs/architecture.md as its package.json has them", () => {
    const page = text('docs/architecture.md');
    const section = page.slice(page.indexOf('## The arrows'), page.indexOf('Never:'));
    const documented = new Map(
      [...section.matchAll(/^\| `([\w/-]+)`\s*\|\s*([^|]+?)\s*\|$/gm)].map((row) => [
        row[1]!,
        row[2] === 'none' ? [] : row[2]!.split(', ').sort(),
      ]),
    );
    const parts = ['apps', 'packages'].flatMap((folder) =>
      execFileSync('git', ['ls-files', `${folder}/*/package.json`], { cwd: root, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((file) => dirname(file)),
    );
    const actual = new Map(
      parts.map((part) => {
        const manifest = JSON.parse(text(`${part}/package.json`)) as {
          dependencies?: Record<string, string>;
          peerDependencies?: Record<string, string>;
        };
        const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
        return [
          part,
          names
            .filter((name) => name.startsWith('@xoss/'))
            .map((name) => name.slice('@xoss/'.length))
            .sort(),
        ];
      }),
    );
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(actual));
  });
});
