import { sha256 } from './digest.ts';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsV4Signer } from 'aws4fetch';
import { byteLimit, checkBlobKey, type BlobStore } from './blobStore.ts';

/** Where an S3-compatible bucket is and how to sign for it. */
export interface S3Options {
  /** `https://s3.eu-central-1.amazonaws.com`, or a MinIO/Ceph/R2 address. */
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Only for tests: replaces the clock of the signature. */
  readonly now?: () => Date;
  /** Only for tests: replaces `fetch`. */
  readonly fetch?: typeof fetch;
}

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** RFC 3986 encoding for the bucket and key in the URL: everything but `A-Za-z0-9-_.~` (and `/`). */
const encode = (text: string, keepSlash = false) =>
  [...new TextEncoder().encode(text)]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-_.~]/.test(char) || (keepSlash && char === '/')) return char;
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

export interface SignInput {
  readonly method: string;
  readonly url: URL;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly payloadHash: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly date: Date;
}

/**
 * AWS Signature Version 4 for S3, by `aws4fetch`'s signer. Every header we send is signed
 * (`allHeaders`: aws4fetch leaves `range` and `content-type` out by default), and the
 * payload's SHA-256 is signed too (aws4fetch would send `UNSIGNED-PAYLOAD` for S3). Returns
 * every header the request must carry, Authorization included (not `host`: fetch sets it).
 */
export async function signV4(input: SignInput): Promise<Record<string, string>> {
  const signer = new AwsV4Signer({
    method: input.method,
    url: input.url.toString(),
    headers: { ...input.headers, 'x-amz-content-sha256': input.payloadHash },
    accessKeyId: input.accessKeyId,
    secretAccessKey: input.secretAccessKey,
    service: 's3',
    region: input.region,
    datetime: input.date.toISOString().replace(/[:-]|\.\d{3}/g, ''),
    allHeaders: true,
  });
  const { headers } = await signer.sign();
  return Object.fromEntries(headers);
}

/** A failed call to the object store: the status and S3's error code when it sent one. */
export class S3Error extends Error {
  readonly status: number;
  /** `ENOENT` for a missing key, as the local store's file system says it. */
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * A `BlobStore` in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2), path-style addresses.
 * A PUT is atomic in S3 — readers see the old object, the new one, or none, never half a file —
 * which is the store's one promise. Stateless: any number of API replicas share the bucket.
 */
export class S3BlobStore implements BlobStore {
  readonly #options: S3Options;
  readonly #fetch: typeof fetch;

  constructor(options: S3Options) {
    this.#options = options;
    this.#fetch = options.fetch ?? fetch;
  }

  #url(key?: string): URL {
    if (key !== undefined) checkBlobKey(key);
    const base = this.#options.endpoint.replace(/\/+$/, '');
    return new URL(`${base}/${encode(this.#options.bucket)}${key ? `/${encode(key, true)}` : ''}`);
  }

  async #call(
    method: 'GET' | 'PUT' | 'HEAD' | 'DELETE' | 'POST',
    url: URL,
    init: { body?: Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers = await signV4({
      method,
      url,
      ...(init.headers ? { headers: init.headers } : {}),
      payloadHash: init.body ? await sha256([init.body]) : EMPTY_SHA256,
      region: this.#options.region,
      accessKeyId: this.#options.accessKeyId,
      secretAccessKey: this.#options.secretAccessKey,
      date: this.#options.now?.() ?? new Date(),
    });
    const response = await this.#fetch(url, {
      method,
      headers,
      ...(init.body ? { body: init.body } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    if (response.ok) return response;
    const text = method === 'HEAD' ? '' : await response.text().catch(() => '');
    const code =
      response.status === 404 ? 'ENOENT' : (/<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? 'S3Error');
    throw new S3Error(
      response.status,
      code,
      `Object store ${method} ${url.pathname}: ${response.status} ${code}`,
    );
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.#call('PUT', this.#url(key), {
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
  }

  /**
   * A stream as one object: up to one part as a plain PUT, longer as a multipart upload
   * (parts of `PART_BYTES`, S3's minimum being 5 MiB), completed only when the whole stream
   * was read; aborted on any failure, so no object and no stray parts are left.
   */
  async putStream(key: string, source: Readable, options: { maxBytes: number }): Promise<number> {
    const limit = byteLimit(options.maxBytes);
    const chunks = source.pipe(limit);
    source.once('error', (error) => limit.destroy(error));
    let buffered: Buffer[] = [];
    let size = 0;
    let upload: string | undefined;
    const parts: string[] = [];
    const base = this.#url(key);
    const sendPart = async () => {
      const body = Buffer.concat(buffered);
      buffered = [];
      size = 0;
      upload ??= await this.#startUpload(base);
      const url = new URL(base);
      url.searchParams.set('partNumber', String(parts.length + 1));
      url.searchParams.set('uploadId', upload);
      const response = await this.#call('PUT', url, { body });
      parts.push(response.headers.get('etag') ?? '');
    };
    try {
      for await (const chunk of chunks as AsyncIterable<Buffer>) {
        buffered.push(chunk);
        size += chunk.length;
        if (size >= PART_BYTES) await sendPart();
      }
      if (upload === undefined) {
        await this.put(key, Buffer.concat(buffered));
        return limit.bytes();
      }
      if (size > 0) await sendPart();
      await this.#completeUpload(base, upload, parts);
      return limit.bytes();
    } catch (error) {
      chunks.destroy();
      if (upload !== undefined) await this.#abortUpload(base, upload).catch(() => undefined);
      throw error;
    }
  }

  async #startUpload(base: URL): Promise<string> {
    const url = new URL(base);
    url.searchParams.set('uploads', '');
    const xml = await (
      await this.#call('POST', url, { headers: { 'content-type': 'application/octet-stream' } })
    ).text();
    const id = /<UploadId>([^<]+)<\/UploadId>/.exec(xml)?.[1];
    if (!id) throw new S3Error(502, 'S3Error', 'The object store started no multipart upload');
    return unescapeXml(id);
  }

  async #completeUpload(base: URL, upload: string, parts: readonly string[]): Promise<void> {
    const url = new URL(base);
    url.searchParams.set('uploadId', upload);
    const xml =
      '<CompleteMultipartUpload>' +
      parts
        .map(
          (etag, index) =>
            `<Part><PartNumber>${index + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`,
        )
        .join('') +
      '</CompleteMultipartUpload>';
    const response = await this.#call('POST', url, { body: new TextEncoder().encode(xml) });
    // S3 may answer 200 with an error in the body when completing fails late.
    const text = await response.text();
    if (/<Error>/.test(text))
      throw new S3Error(500, /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? 'S3Error', text);
  }

  async #abortUpload(base: URL, upload: string): Promise<void> {
    const url = new URL(base);
    url.searchParams.set('uploadId', upload);
    await this.#call('DELETE', url);
  }

  async get(key: string): Promise<Buffer> {
    const response = await this.#call('GET', this.#url(key));
    return Buffer.from(await response.arrayBuffer());
  }

  stream(key: string, range?: { start: number; end: number }): Readable {
    const url = this.#url(key);
    const call = () =>
      this.#call(
        'GET',
        url,
        range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {},
      );
    // The call starts when the stream is first read; its errors become the stream's.
    return Readable.from(
      (async function* () {
        const response = await call();
        if (!response.body) return;
        yield* Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      })(),
      { objectMode: false },
    );
  }

  async #head(key: string): Promise<Response | undefined> {
    try {
      return await this.#call('HEAD', this.#url(key));
    } catch (error) {
      if (error instanceof S3Error && error.code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    const response = await this.#head(key);
    return response ? Number(response.headers.get('content-length')) : undefined;
  }

  async modifiedAt(key: string): Promise<number | undefined> {
    const response = await this.#head(key);
    const modified = response?.headers.get('last-modified');
    return modified ? Date.parse(modified) : undefined;
  }

  async delete(key: string): Promise<void> {
    try {
      await this.#call('DELETE', this.#url(key));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores answer 404.
      if (!(error instanceof S3Error && error.code === 'ENOENT')) throw error;
    }
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const url = this.#url();
      url.searchParams.set('list-type', '2');
      url.searchParams.set('prefix', `${prefix}/`);
      if (token) url.searchParams.set('continuation-token', token);
      const xml = await (await this.#call('GET', url)).text();
      for (const [, key] of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(unescapeXml(key!));
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? unescapeXml(
            /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? '',
          )
        : undefined;
    } while (token);
    return keys;
  }
}

/** Parts of a multipart upload: S3 takes 5 MiB at least (but the last), 10,000 parts at most. */
const PART_BYTES = 16 * 1024 * 1024;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * The S3 settings of the environment when `BLOB_STORE=s3` (docs/deploy.md): endpoint,
 * region, bucket and keys, every one required; `undefined` for the local folder.
 */
export function s3OptionsFromEnv(env: NodeJS.ProcessEnv = process.env): S3Options | undefined {
  if ((env.BLOB_STORE ?? 'local') === 'local') return undefined;
  if (env.BLOB_STORE !== 's3')
    throw new Error(`BLOB_STORE must be local or s3, not ${env.BLOB_STORE}`);
  const names = [
    'S3_ENDPOINT',
    'S3_REGION',
    'S3_BUCKET',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
  ] as const;
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`BLOB_STORE=s3 needs ${missing.join(', ')}`);
  return {
    endpoint: env.S3_ENDPOINT!,
    region: env.S3_REGION!,
    bucket: env.S3_BUCKET!,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
  };
}
