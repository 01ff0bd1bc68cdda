import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The API's layers (README): routes/ is HTTP only; SQL lives in each resource's storage module.

describe('the API layers', () => {
  it('keep SQL out of the HTTP routes', () => {
    const routes = new URL('./routes/', import.meta.url);
    const files = readdirSync(routes).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const withSql = files.filter((file) =>
      /\.query\s*[<(]|\b(SELECT|INSERT INTO|DELETE FROM)\b|\bUPDATE \w+ SET\b/.test(
        readFileSync(new URL(file, routes), 'utf8'),
      ),
    );
    expect(withSql).toEqual([]);
  });
});
