/**
 * The API report of each published package: every export of each entry point (the
 * `exports` map, read from the TypeScript sources) with its kind and signature, written to
 * `packages/<name>/api-report.md`. A change of a package's public surface then shows in
 * review as a change of that file. `pnpm test` runs `node scripts/apiReport.ts --check`,
 * which fails when a report is out of date; `pnpm api:report` writes them.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

const flags =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrowStyleSignature;
// Inferred types longer than this (RTK Query's generated hooks) are summarised by their
// declaration instead of written out.
const MAX_TYPE = 600;

/** The source file of each entry point of a package with its `@xoss/source` condition. */
function entries(folder: string): [string, string][] {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]): [string, string][] => {
    const source = typeof target === 'object' ? target['@xoss/source'] : undefined;
    return source && /\.tsx?$/.test(source) ? [[subpath, join(folder, source)]] : [];
  });
}

function describe(checker: ts.TypeChecker, symbol: ts.Symbol): string {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const declaration = target.declarations?.[0];
  const name = symbol.getName();
  if (!declaration) return `${name}: (unknown)`;
  const plain = (node: ts.Node) =>
    ts
      .createPrinter({ removeComments: true })
      .printNode(ts.EmitHint.Unspecified, node, node.getSourceFile());
  if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration))
    return plain(declaration).replace(/^export /, '');
  if (ts.isEnumDeclaration(declaration)) return plain(declaration).replace(/^export /, '');
  if (ts.isClassDeclaration(declaration)) {
    const members = checker
      .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target))
      .filter((member) => !member.getName().startsWith('#'))
      .map((member) => {
        const type = checker.getTypeOfSymbolAtLocation(member, declaration);
        return `  ${member.getName()}: ${checker.typeToString(type, declaration, flags)};`;
      });
    return `class ${name} {\n${members.join('\n')}\n}`;
  }
  const type = checker.getTypeOfSymbolAtLocation(target, declaration);
  const signatures = type.getCallSignatures();
  if (
    ts.isFunctionDeclaration(declaration) ||
    (signatures.length > 0 && !type.getProperties().length)
  )
    return signatures
      .map((signature) => {
        const written = checker.signatureToString(signature, declaration, flags);
        if (written.length <= MAX_TYPE) return `function ${name}${written}`;
        const parameters = signature.parameters
          .map((parameter) => {
            const parameterType = checker.getTypeOfSymbolAtLocation(parameter, declaration);
            return `${parameter.getName()}: ${checker.typeToString(parameterType, declaration, flags)}`;
          })
          .join(', ');
        return `function ${name}(${parameters}) => ${summary(checker, signature.getReturnType(), declaration)}`;
      })
      .join('\n');
  return `const ${name}: ${summary(checker, type, declaration)}`;
}

/** A type as written, or, when too long to read, its members' names (and its length). */
function summary(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): string {
  const written = checker.typeToString(type, at, flags);
  if (written.length <= MAX_TYPE) return written;
  // Well-known symbols (`__@iterator@<id>`) carry the checker's ids, which change between runs.
  const members = type
    .getProperties()
    .map((member) => member.getName())
    .filter((member) => !member.startsWith('__@'));
  return `{ ${members.join('; ')} } (inferred, ${written.length} characters)`;
}

function report(folder: string): string {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    name: string;
  };
  const files = entries(folder);
  const program = ts.createProgram(
    files.map(([, file]) => file),
    {
      ...ts.getDefaultCompilerOptions(),
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      customConditions: ['@xoss/source'],
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      jsx: ts.JsxEmit.ReactJSX,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    },
  );
  const checker = program.getTypeChecker();
  const sections = files.map(([subpath, file]) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${file}: not a module`);
    const exports = checker
      .getExportsOfModule(module)
      .sort((a, b) => a.getName().localeCompare(b.getName(), 'en'));
    const lines = exports.map((symbol) => describe(checker, symbol));
    const entry = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
    return `## ${entry}\n\n\`\`\`ts\n${lines.join('\n\n')}\n\`\`\``;
  });
  return (
    `# API report: ${manifest.name}\n\n` +
    `Written by \`pnpm api:report\` from the sources (scripts/apiReport.ts); \`pnpm test\` fails\n` +
    `when it is out of date. A change here is a change of the package's public surface.\n\n` +
    `${sections.join('\n\n')}\n`
  );
}

const stale: string[] = [];
for (const name of readdirSync(join(root, 'packages')).sort()) {
  const folder = join(root, 'packages', name);
  if (!existsSync(join(folder, 'package.json'))) continue;
  const text = report(folder);
  const path = join(folder, 'api-report.md');
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (current === text) continue;
  if (check) stale.push(`packages/${name}/api-report.md`);
  else writeFileSync(path, text);
}
if (stale.length > 0) {
  console.error(
    `The public surface changed; run \`pnpm api:report\` and commit:\n  ${stale.join('\n  ')}`,
  );
  process.exit(1);
}
