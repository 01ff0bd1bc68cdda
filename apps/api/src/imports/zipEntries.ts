// Reading an export archive's entries safely: names, links, sizes and bombs judged from the
// central directory before a byte is inflated, and every read bounded.
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { bytesText } from '../platform/bytes.ts';
import yauzl from 'yauzl';

/**
 * What an archive may hold, counted over the whole archive (its nested zips included);
 * beyond these an entry is skipped (one file too large, a bomb) or the archive refused.
 */
export interface ZipLimits {
  /** Entries of the archive and all its nested zips together. */
  readonly maxEntries: number;
  /** Zips inside the archive (Garmin Connect's export has a few). */
  readonly maxNestedZips: number;
  /** One activity file, unpacked. */
  readonly maxEntryBytes: number;
  /** A nested zip (Garmin Connect's `UploadedFiles_*.zip`), unpacked to a temporary file. */
  readonly maxNestedBytes: number;
  /** Unpacked size over packed size above which an entry is a bomb. */
  readonly maxRatio: number;
  /** All entries of the archive (nested ones included), unpacked. */
  readonly maxTotalBytes: number;
  /** Bytes written to the temporary folder for one archive: its copy and its nested zips. */
  readonly maxTempBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxNestedZips: 1_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxNestedBytes: 8 * 1024 * 1024 * 1024,
  maxRatio: 200,
  maxTotalBytes: 32 * 1024 * 1024 * 1024,
  maxTempBytes: 10 * 1024 * 1024 * 1024,
};

/** One entry of a zip, as its central directory describes it. */
export interface ZipEntry {
  readonly name: string;
  readonly packedBytes: number;
  readonly bytes: number;
  readonly raw: yauzl.Entry;
  /** Why it is not read (an unsafe name, a link, a bomb), or undefined. */
  readonly refused?: { readonly code: string; readonly message: string };
}

/** Unix file type bits of the external attributes (high 16 bits): a symbolic link. */
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why a name may not be used: absolute, a drive, a backslash, `..` or a control character. */
function unsafeName(name: string): string | undefined {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  if (name.includes('\\')) return 'a backslash in the path';
  if (name.split('/').includes('..')) return '".." in the path';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name)) return 'a control character in the name';
  return undefined;
}

function judged(entry: yauzl.Entry, limits: ZipLimits): ZipEntry {
  const name = Buffer.isBuffer(entry.fileName)
    ? (entry.fileName as Buffer).toString('utf8')
    : String(entry.fileName);
  const base = {
    name,
    packedBytes: entry.compressedSize,
    bytes: entry.uncompressedSize,
    raw: entry,
  };
  const unsafe = unsafeName(name);
  if (unsafe) return { ...base, refused: { code: 'unsafePath', message: `Skipped: ${unsafe}` } };
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK)
    return { ...base, refused: { code: 'link', message: 'Skipped: a link, not a file' } };
  if (entry.compressedSize > 0 && entry.uncompressedSize / entry.compressedSize > limits.maxRatio)
    return {
      ...base,
      refused: {
        code: 'zipBomb',
        message: `Skipped: it unpacks to ${Math.round(entry.uncompressedSize / entry.compressedSize)} times its size`,
      },
    };
  return base;
}

/** A zip file opened for reading its entries (random access: a file on disk). */
export class ZipReader {
  readonly #zip: yauzl.ZipFile;
  readonly #limits: ZipLimits;

  /** An error the zip raised outside a read (kept so that no error event goes unheard). */
  #failure: Error | undefined;

  private constructor(zip: yauzl.ZipFile, limits: ZipLimits) {
    this.#zip = zip;
    this.#limits = limits;
    // An 'error' event with no listener ends the process: every one is heard here.
    zip.on('error', (error: Error) => {
      this.#failure ??= error;
    });
  }

  /** Entries the zip's directory says it holds (known before any is read). */
  get entryCount(): number {
    return this.#zip.entryCount;
  }

  static open(path: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipReader> {
    return new Promise((resolve, reject) => {
      yauzl.open(
        path,
        { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false },
        (error, zip) => {
          if (error)
            reject(new ZipRefused('notZip', `The file is not a zip archive: ${error.message}`));
          else resolve(new ZipReader(zip, limits));
        },
      );
    });
  }

  /**
   * Every entry (directories left out), judged; refuses a zip with more than `maxEntries`
   * (by default the limit of a whole archive) before one is read. Read once per opening.
   */
  entries(maxEntries = this.#limits.maxEntries): Promise<ZipEntry[]> {
    const zip = this.#zip;
    if (zip.entryCount > maxEntries)
      return Promise.reject(
        new ArchiveLimit(
          'tooManyEntries',
          `The archive holds more than ${this.#limits.maxEntries} entries`,
        ),
      );
    return new Promise((resolve, reject) => {
      const entries: ZipEntry[] = [];
      const onError = (error: Error) => {
        zip.off('entry', onEntry);
        reject(new ZipRefused('badZip', `The archive is damaged: ${error.message}`));
      };
      const onEntry = (entry: yauzl.Entry) => {
        const item = judged(entry, this.#limits);
        if (!item.name.endsWith('/')) entries.push(item);
        zip.readEntry();
      };
      zip.on('entry', onEntry);
      zip.once('end', () => {
        zip.off('entry', onEntry);
        zip.off('error', onError);
        resolve(entries);
      });
      zip.once('error', onError);
      zip.readEntry();
    });
  }

  /** An entry's bytes, refused past `maxBytes` (whatever its header claims). */
  async read(entry: ZipEntry, maxBytes: number): Promise<Buffer> {
    if (entry.bytes > maxBytes) throw tooLarge(maxBytes);
    const chunks: Buffer[] = [];
    await this.pipeTo(
      entry,
      maxBytes,
      () =>
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        }),
    );
    return Buffer.concat(chunks);
  }

  /**
   * Writes an entry through the sink `open` makes (a file), refused past `maxBytes`. The
   * sink is made only once the entry is being read, so a refusal leaves no open file whose
   * error nobody hears (that crashed the process at the open-files limit).
   */
  async pipeTo(
    entry: ZipEntry,
    maxBytes: number,
    open: () => NodeJS.WritableStream,
    refusal: (maxBytes: number) => ZipRefused = tooLarge,
  ): Promise<void> {
    if (entry.bytes > maxBytes) throw refusal(maxBytes);
    if (this.#failure)
      throw new ZipRefused('badZip', `The archive is damaged: ${this.#failure.message}`);
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => {
      this.#zip.openReadStream(entry.raw, (error, readable) => {
        if (error) reject(new ZipRefused('badEntry', `The entry cannot be read: ${error.message}`));
        else resolve(readable);
      });
    });
    let seen = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        if (seen > maxBytes) done(refusal(maxBytes));
        else done(null, chunk);
      },
    });
    try {
      await pipeline(stream, limit, open());
    } catch (error) {
      if (error instanceof ZipRefused) throw error;
      throw new ZipRefused('badEntry', `The entry cannot be unpacked: ${(error as Error).message}`);
    }
  }

  close(): void {
    this.#zip.close();
  }
}

/** An archive or an entry we will not read, with its reason. */
export class ZipRefused extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ZipRefused';
    this.code = code;
  }
}

/** A limit of the whole archive broken: the archive fails, not just the entry at hand. */
export class ArchiveLimit extends ZipRefused {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'ArchiveLimit';
  }
}

const tooLarge = (maxBytes: number) =>
  new ZipRefused('tooLarge', `Skipped: it unpacks to more than ${bytesText(maxBytes)}`);
