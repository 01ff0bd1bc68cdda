import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.ts';
import { S3BlobStore, S3Error, s3OptionsFromEnv, signV4 } from '../src/platform/s3BlobStore.ts';
import { demoGpx } from '../src/commands/seed.ts';
import { bearer, closePool, fitFile, harness, pgliteFactory, upload } from './harness.ts';

describe('Signature Version 4', () => {
  it('signs the documented GET Object example of the S3 API reference', async () => {
    // "Example: GET Object" (Authenticating Requests: Using the Authorization Header,
    // Transferring Payload in a Single Chunk), with its published signature.
    const headers = await signV4({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      date: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(headers['x-amz-date']).toBe('20130524T000000Z');
  });
});

describe('signed requests (aws4fetch)', () => {
  it("signs the body's SHA-256 and every header sent, range and content type included", async () => {
    const seen: Headers[] = [];
    const blobs = new S3BlobStore({
      endpoint: 'http://127.0.0.1:9',
      region: 'eu-central-1',
      bucket: 'xoss-files',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      fetch: (_url, init) => {
        seen.push(new Headers(init?.headers));
        return Promise.resolve(new Response('abc', { status: 200 }));
      },
    });
    const bytes = new TextEncoder().encode('a ride');
    await blobs.put('workouts/a.fit', bytes);
    await blobs.get('workouts/a.fit');
    const [put, get] = seen as [Headers, Headers];
    expect(put.get('x-amz-content-sha256')).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(put.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-central-1\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(get.get('x-amz-content-sha256')).toBe(createHash('sha256').digest('hex'));
    const ranged = new S3BlobStore({
      endpoint: 'http://127.0.0.1:9',
      region: 'eu-central-1',
      bucket: 'xoss-files',
      accessKeyId: 'AKID',
      secretAccessKey: 'secret',
      fetch: (_url, init) => {
        seen.push(new Headers(init?.headers));
        return Promise.resolve(new Response('ab', { status: 206 }));
      },
    });
    for await (const chunk of ranged.stream('workouts/a.fit', { start: 0, end: 1 })) void chunk;
    expect(seen[2]!.get('authorization')).toContain(
      'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date',
    );
  });
});

// s3rver: an S3-compatible server (MIT) on loopback: the real protocol over real HTTP.
describe('S3-compatible blob store', () => {
  let dir: string;
  let server: S3rver;
  let endpoint: string;
  const store = () =>
    new S3BlobStore({
      endpoint,
      region: 'us-east-1',
      bucket: 'xoss-files',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'xoss-s3-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'xoss-files', configs: [] }],
    });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await server.close();
    await closePool();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes, reads, ranges, sizes, lists and deletes objects', async () => {
    const blobs = store();
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
    await blobs.put('workouts/a.fit', bytes);
    await blobs.put('workouts/b.fit', new Uint8Array([1, 2, 3]));
    await blobs.put('routebooks/c.gpx', new Uint8Array([4]));
    expect(Buffer.from(await blobs.get('workouts/a.fit')).equals(Buffer.from(bytes))).toBe(true);
    expect(await blobs.size('workouts/a.fit')).toBe(70_000);
    expect(await blobs.size('workouts/missing.fit')).toBeUndefined();
    const modified = await blobs.modifiedAt('workouts/a.fit');
    expect(Math.abs(modified! - Date.now())).toBeLessThan(60_000);
    const part: Buffer[] = [];
    for await (const chunk of blobs.stream('workouts/a.fit', { start: 100, end: 1099 }))
      part.push(chunk as Buffer);
    expect([...Buffer.concat(part)]).toEqual([...bytes.subarray(100, 1100)]);
    expect((await blobs.list('workouts')).sort()).toEqual(['workouts/a.fit', 'workouts/b.fit']);
    await blobs.delete('workouts/a.fit');
    await blobs.delete('workouts/a.fit'); // twice: deleting nothing is fine
    expect(await blobs.list('workouts')).toEqual(['workouts/b.fit']);
    await expect(blobs.get('workouts/a.fit')).rejects.toMatchObject({ code: 'ENOENT' });
    // A missing object fails the stream, not the process.
    await expect(async () => {
      for await (const chunk of blobs.stream('workouts/a.fit')) void chunk;
    }).rejects.toMatchObject({ code: 'ENOENT' });
    // Keys are ours; anything else never reaches the bucket.
    await expect(blobs.put('../etc/passwd', bytes)).rejects.toThrow(/Bad blob key/);
    await Promise.all(['workouts/b.fit', 'routebooks/c.gpx'].map((key) => blobs.delete(key)));
    expect(await blobs.list('routebooks')).toEqual([]);
  });

  it("signs every call: an unknown access key is refused, and the error is S3's", async () => {
    // (s3rver checks the key of a Signature V4 request, not its signature; the signature
    // itself is checked against AWS's published example above.)
    const stranger = new S3BlobStore({
      endpoint,
      region: 'us-east-1',
      bucket: 'xoss-files',
      accessKeyId: 'NOT-A-KEY',
      secretAccessKey: 'S3RVER',
    });
    const error = await stranger
      .put('workouts/x.fit', new Uint8Array([1]))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3Error);
    expect(error).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
    expect(await store().size('workouts/x.fit')).toBeUndefined();
  });

  it('carries the API: FIT import and download, routebooks, map ranges, deletion', async () => {
    const blobs = store();
    const factory = await pgliteFactory();
    const h = await harness(factory, {}, { blobs });
    try {
      const rider = await h.user();
      const fit = fitFile(600, 7);
      const imported = await upload(h, '/api/v2/workouts/', rider.access, {
        filename: 'ride.fit',
        bytes: fit,
      });
      expect(imported.statusCode).toBe(201);
      const id = imported.json<{ data: { id: number } }>().data.id;
      const file = await h.server.inject({
        method: 'GET',
        url: `/api/v2/workouts/${id}/fit/`,
        headers: bearer(rider.access),
      });
      expect(Buffer.from(file.rawPayload).equals(Buffer.from(fit))).toBe(true);
      const [fitKey] = await blobs.list('workouts');
      // Our own key, never the rider's file name: the upload's import id (the format is
      // known only once the queued import has read it; downloads name it by its format).
      expect(fitKey).toMatch(/^workouts\/[0-9a-f-]{36}\.upload$/);

      const gpx = new TextEncoder().encode(demoGpx(1, 600, false));
      const route = await upload(
        h,
        '/api/v2/routebooks/',
        rider.access,
        { filename: 'route.gpx', bytes: gpx },
        { title: 'Lake loop' },
      );
      expect(route.statusCode).toBe(201);
      expect(await blobs.list('routebooks')).toHaveLength(1);

      const map = new Uint8Array(5000).map((_, i) => i % 251);
      await blobs.put('maps/test-0.map', map);
      await h.db.query(
        `INSERT INTO map_regions (model, name, bbox, file_key, size_bytes) VALUES ('NAV+', 'Test', '[1,2,3,4]', 'maps/test-0.map', 5000)`,
      );
      const regions = (
        await h.server.inject({ method: 'GET', url: '/api/v2/maps/regions/?model=NAV%2B' })
      ).json<{ data: { download_url: string }[] }>();
      const part = await h.server.inject({
        method: 'GET',
        url: regions.data[0]!.download_url,
        headers: { range: 'bytes=100-199' },
      });
      expect(part.statusCode).toBe(206);
      expect([...part.rawPayload]).toEqual([...map.subarray(100, 200)]);

      const removed = await h.server.inject({
        method: 'DELETE',
        url: `/api/v2/workouts/${id}/`,
        headers: bearer(rider.access),
      });
      expect(removed.statusCode).toBe(200);
      expect(await blobs.list('workouts')).toEqual([]);
    } finally {
      await h.close();
      await factory.close();
    }
  });

  it('runs the app on the bucket: an object no row names is swept at start', async () => {
    const blobs = store();
    await blobs.put('workouts/orphan.fit', new Uint8Array([9]));
    const dataDir = mkdtempSync(join(tmpdir(), 'xoss-s3-app-'));
    const options = s3OptionsFromEnv({
      BLOB_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: 'xoss-files',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    const { server } = await createApp({ dataDir, s3: options!, logger: false });
    try {
      expect(await blobs.list('workouts')).toEqual([]);
      expect((await server.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('BLOB_STORE settings', () => {
  it('takes the local folder by default, and names every missing S3 setting', () => {
    expect(s3OptionsFromEnv({})).toBeUndefined();
    expect(s3OptionsFromEnv({ BLOB_STORE: 'local' })).toBeUndefined();
    expect(() => s3OptionsFromEnv({ BLOB_STORE: 'gcs' })).toThrow(/local or s3/);
    expect(() => s3OptionsFromEnv({ BLOB_STORE: 's3', S3_BUCKET: 'b' })).toThrow(
      'BLOB_STORE=s3 needs S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
  });
});
