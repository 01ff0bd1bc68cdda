import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The manifests other teams read (docs/packages.md): what the registry shows of each package
// is checked on a real publish in release.test.ts; here, that the two export maps agree.

const root = fileURLToPath(new URL('..', import.meta.url));

interface Manifest {
  name: string;
  private?: boolean;
  exports: Record<string, unknown>;
  publishConfig?: { exports?: Record<string, unknown> };
  repository?: { url?: string; directory?: string };
  engines?: { node?: string };
}

const published = readdirSync(join(root, 'packages'))
  .filter((folder) => existsSync(join(root, 'packages', folder, 'package.json')))
  .map((folder) => ({
    folder,
    manifest: JSON.parse(
      readFileSync(join(root, 'packages', folder, 'package.json'), 'utf8'),
    ) as Manifest,
  }))
  .filter(({ manifest }) => !manifest.private);

/** An export map without the workspace's condition for TypeScript sources. */
function withoutSource(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([condition]) => condition !== '@xoss/source')
      .map(([condition, target]) => [condition, withoutSource(target)]),
  );
}

describe('the published manifests', () => {
  it('publish the export map of the workspace without its source condition', () => {
    expect(published).toHaveLength(7);
    for (const { manifest } of published) {
      expect(manifest.publishConfig?.exports, manifest.name).toEqual(
        withoutSource(manifest.exports),
      );
      // The workspace's own map keeps it: tests and apps run on the sources.
      expect(JSON.stringify(manifest.exports), manifest.name).toContain('@xoss/source');
    }
  });

  it('name one repository, each its folder, and one Node range', () => {
    const urls = new Set(published.map(({ manifest }) => manifest.repository?.url));
    const engines = new Set(published.map(({ manifest }) => manifest.engines?.node));
    expect([...urls]).toHaveLength(1);
    expect([...engines]).toHaveLength(1);
    for (const { folder, manifest } of published)
      expect(manifest.repository?.directory, manifest.name).toBe(`packages/${folder}`);
  });
});
