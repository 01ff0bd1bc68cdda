import type { HtmlTagDescriptor, Plugin, Rollup } from 'vite';

/**
 * Lists a dynamically imported module's chunk, and every chunk it imports statically, in the
 * page as `<link rel="modulepreload">`: the browser fetches them beside the entry instead of
 * after it has run. The portal's entry stays small (the store and the API client) and
 * imports the application (`src/app.tsx`) this way, so the first page's calls start before
 * React is evaluated, without the application waiting a round trip for the entry.
 */
export function preloadApp(module: string): Plugin {
  let base = '/';
  return {
    name: 'xoss-preload-app',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const bundle: Rollup.OutputBundle | undefined = context.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter(
          (output): output is Rollup.OutputChunk => output.type === 'chunk',
        );
        const app = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(module));
        if (!app) throw new Error(`preloadApp: no chunk for ${module}`);
        const entry = chunks.find((chunk) => chunk.isEntry);
        // What the page already loads: the entry and its static imports.
        const listed = new Set([entry?.fileName, ...(entry?.imports ?? [])]);
        const files: string[] = [];
        const visit = (fileName: string) => {
          if (listed.has(fileName)) return;
          listed.add(fileName);
          files.push(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        return files.map((fileName): HtmlTagDescriptor => ({
          tag: 'link',
          // Low: the entry (and the calls it starts) goes first.
          attrs: {
            rel: 'modulepreload',
            crossorigin: true,
            fetchpriority: 'low',
            href: `${base}${fileName}`,
          },
          injectTo: 'head',
        }));
      },
    },
  };
}
