import { DecodeFailure, messageIdOf, type DecodeResult, type ErrorCodeOf } from '../errors.ts';

/**
 * The clock of the time budget, in milliseconds: the reading thread's own CPU time where the
 * platform measures it (Node's `process.threadCpuUsage`, Node 23.9 and later), else the wall
 * clock (a browser, an older Node). A
 * loaded machine shares its cores out but adds no CPU time to a reading, so a file is never
 * refused for another program's load: on the wall clock, a 5,800-line TCX took over its 2 s
 * while other test suites ran beside it on a 2-core machine.
 */
const budgetClockMs: () => number = (() => {
  const host = (
    globalThis as {
      process?: { threadCpuUsage?: (this: unknown) => { user: number; system: number } };
    }
  ).process;
  const usage = host?.threadCpuUsage;
  const wall = () => performance.now();
  if (typeof usage !== 'function') return wall;
  const cpu = () => {
    const { user, system } = usage.call(host);
    return (user + system) / 1000;
  };
  // Node throws where the platform cannot tell a thread's usage: asked once, here.
  try {
    cpu();
    return cpu;
  } catch {
    return wall;
  }
})();

/** Resource limits of the XML readers; each is checked while reading. */
export interface XmlLimits {
  readonly maxDepth: number;
  readonly maxAttributes: number;
  readonly maxAttributeLength: number;
  readonly maxTextLength: number;
  /** The reading's own CPU time where the platform measures it, else wall time. */
  readonly timeBudgetMs: number;
}

const PREDEFINED: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/** The local part of a qualified name (`gpxtpx:hr` -> `hr`). */
export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** A decimal number as XML files write it; `undefined` for anything else. */
export function decimal(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value))
    return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/**
 * A hardened, streaming XML reader for activity files (GPX, TCX): no DTD, no entity beyond
 * the five of XML, limited depth, attributes and text, a time budget, one root of the
 * expected name. Subclasses get element starts and ends and the text of the elements they
 * name; errors are `DecodeFailure`s with a line and column.
 */
export abstract class XmlReader<F extends 'gpx' | 'tcx'> {
  protected readonly stack: string[] = [];
  private readonly started = budgetClockMs();
  // Tags read so far; the time budget is checked every 4096 of them.
  private tags = 0;
  private capture: string | undefined;
  private rootClosed = false;
  private sawRoot = false;
  protected readonly text: string;
  protected readonly limits: XmlLimits;
  private readonly format: F;
  private readonly root: string;
  private readonly textElements: ReadonlySet<string>;

  constructor(
    text: string,
    limits: XmlLimits,
    format: F,
    root: string,
    textElements: ReadonlySet<string>,
  ) {
    this.text = text;
    this.limits = limits;
    this.format = format;
    this.root = root;
    this.textElements = textElements;
  }

  /** An element opened (local name). */
  protected abstract startElement(
    name: string,
    attributes: Map<string, string>,
    offset: number,
  ): void;
  /**
   * A subclass's faster reading of the element whose start tag is at `open` (outside any
   * kept text): the position after what it read, or -1 to leave it to this reader. What it
   * reads must be what this reader would have read, limits and hooks included; it reports
   * its tags through `countTags`.
   */
  protected fastElement(_open: number): number {
    return -1;
  }

  /** Counts tags read by `fastElement` towards the time budget. */
  protected countTags(count: number, offset: number): void {
    const before = this.tags;
    this.tags += count;
    if (
      before >>> 12 !== this.tags >>> 12 &&
      budgetClockMs() - this.started > this.limits.timeBudgetMs
    )
      this.fail('timeout', 'The file took too long to read', offset);
  }

  /** An element closed (local name). */
  protected abstract endElement(name: string, offset: number): void;
  /** The trimmed text of an element named in `textElements`, when it closes. */
  protected abstract textOf(name: string, value: string, offset: number): void;

  protected fail(code: ErrorCodeOf<F>, message: string, offset: number): never {
    let line = 1;
    let lineStart = 0;
    for (
      let i = this.text.indexOf('\n');
      i !== -1 && i < offset;
      i = this.text.indexOf('\n', i + 1)
    ) {
      line++;
      lineStart = i + 1;
    }
    throw new DecodeFailure({
      code,
      messageId: messageIdOf(this.format, code),
      message: `${message} (line ${line}, column ${offset - lineStart + 1})`,
      line,
      column: offset - lineStart + 1,
    });
  }

  /** Reads the whole text, calling the element hooks; throws `DecodeFailure`. */
  protected readXml(): void {
    const { text } = this;
    let position = 0;
    while (position < text.length) {
      const open = text.indexOf('<', position);
      const end = open === -1 ? text.length : open;
      if (end > position) this.characters(position, end);
      if (open === -1) break;
      if ((++this.tags & 0xfff) === 0 && budgetClockMs() - this.started > this.limits.timeBudgetMs)
        this.fail('timeout', 'The file took too long to read', open);
      position = this.markup(open);
    }
    if (!this.sawRoot) this.fail('noRoot', `The file has no <${this.root}> element`, text.length);
    if (this.stack.length > 0)
      this.fail(
        'unclosedTag',
        `<${this.stack[this.stack.length - 1]}> is never closed`,
        text.length,
      );
  }

  private characters(from: number, to: number): void {
    const raw = this.text.slice(from, to);
    if (this.capture !== undefined) {
      this.capture += this.decodeEntities(raw, from);
      if (this.capture.length > this.limits.maxTextLength)
        this.fail('textTooLong', `Text longer than ${this.limits.maxTextLength} characters`, from);
      return;
    }
    if (raw.includes('&')) this.decodeEntities(raw, from);
    if ((this.rootClosed || !this.sawRoot) && raw.trim() !== '')
      this.fail('textOutsideRoot', `Text outside the <${this.root}> element`, from);
  }

  private decodeEntities(raw: string, offset: number): string {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;&\s]{0,12});?/g, (match, name: string, at: number) => {
      if (!match.endsWith(';')) this.fail('badEntity', 'A "&" that starts no entity', offset + at);
      if (name.startsWith('#')) {
        const code =
          name[1] === 'x' || name[1] === 'X'
            ? Number.parseInt(name.slice(2), 16)
            : Number.parseInt(name.slice(1), 10);
        if (
          !Number.isInteger(code) ||
          code <= 0 ||
          code > 0x10ffff ||
          (code >= 0xd800 && code <= 0xdfff)
        )
          this.fail('badEntity', `Invalid character reference &${name};`, offset + at);
        return String.fromCodePoint(code);
      }
      const value = PREDEFINED[name];
      if (value === undefined)
        this.fail(
          'entity',
          `Entity &${name}; is not allowed: only the five XML entities are`,
          offset + at,
        );
      return value;
    });
  }

  // Reads markup at `open` ("<"); returns the position after it.
  private markup(open: number): number {
    const { text } = this;
    const next = text.charCodeAt(open + 1);
    if (next === 0x3f /* ? */) {
      const close = text.indexOf('?>', open + 2);
      if (close === -1) this.fail('malformed', 'Unclosed processing instruction', open);
      return close + 2;
    }
    if (next === 0x21 /* ! */) {
      if (text.startsWith('<!--', open)) {
        const close = text.indexOf('-->', open + 4);
        if (close === -1) this.fail('malformed', 'Unclosed comment', open);
        return close + 3;
      }
      if (text.startsWith('<![CDATA[', open)) {
        const close = text.indexOf(']]>', open + 9);
        if (close === -1) this.fail('malformed', 'Unclosed CDATA section', open);
        if (this.capture !== undefined) this.capture += text.slice(open + 9, close);
        else if (this.rootClosed || !this.sawRoot)
          this.fail('textOutsideRoot', `Text outside the <${this.root}> element`, open);
        return close + 3;
      }
      this.fail('dtd', 'The file may not contain a DTD or declarations (<!DOCTYPE ...>)', open);
    }
    if (next !== 0x2f /* / */ && this.capture === undefined) {
      const after = this.fastElement(open);
      if (after >= 0) return after;
    }
    const close = text.indexOf('>', open + 1);
    if (close === -1) this.fail('malformed', 'Unclosed tag', open);
    if (next === 0x2f /* / */) {
      const name = text.slice(open + 2, close).trim();
      const expected = this.stack.pop();
      if (expected !== name)
        this.fail(
          'mismatchedTag',
          expected === undefined ? `Unexpected </${name}>` : `</${name}> closes <${expected}>`,
          open,
        );
      this.closed(localName(name), open);
      return close + 1;
    }
    const selfClosing = text.charCodeAt(close - 1) === 0x2f;
    const body = text.slice(open + 1, selfClosing ? close - 1 : close);
    const nameEnd = body.search(/[\s]/);
    const name = nameEnd === -1 ? body : body.slice(0, nameEnd);
    if (!/^[A-Za-z_][\w.:-]*$/.test(name))
      this.fail('malformed', `Invalid element name "${name.slice(0, 20)}"`, open);
    const attributes =
      nameEnd === -1 ? new Map<string, string>() : this.attributes(body.slice(nameEnd), open);
    if (this.stack.length === 0) {
      if (this.rootClosed)
        this.fail('multipleRoots', `A second root element after </${this.root}>`, open);
      if (localName(name) !== this.root)
        this.fail('wrongRoot', `The root element is <${name}>, not <${this.root}>`, open);
      this.sawRoot = true;
    }
    if (this.stack.length >= this.limits.maxDepth)
      this.fail('tooDeep', `Elements nested deeper than ${this.limits.maxDepth}`, open);
    this.stack.push(name);
    this.opened(localName(name), attributes, open);
    if (selfClosing) {
      this.stack.pop();
      this.closed(localName(name), open);
    }
    return close + 1;
  }

  private attributes(source: string, offset: number): Map<string, string> {
    const attributes = new Map<string, string>();
    const pattern = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')|(\S)/g;
    for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
      if (match[4] !== undefined) this.fail('malformed', 'Malformed attributes', offset);
      const value = match[2] ?? match[3] ?? '';
      if (value.length > this.limits.maxAttributeLength)
        this.fail(
          'attributeTooLong',
          `An attribute longer than ${this.limits.maxAttributeLength} characters`,
          offset,
        );
      attributes.set(match[1]!, this.decodeEntities(value, offset));
      if (attributes.size > this.limits.maxAttributes)
        this.fail('tooManyAttributes', `More than ${this.limits.maxAttributes} attributes`, offset);
    }
    return attributes;
  }

  private opened(name: string, attributes: Map<string, string>, offset: number): void {
    this.startElement(name, attributes, offset);
    if (this.textElements.has(name)) this.capture = '';
  }

  private closed(name: string, offset: number): void {
    if (this.stack.length === 0) this.rootClosed = true;
    if (this.textElements.has(name) && this.capture !== undefined) {
      const value = this.capture.trim();
      this.capture = undefined;
      this.textOf(name, value, offset);
      return;
    }
    this.endElement(name, offset);
  }
}

/**
 * The common front of the XML parsers: the size cap (before anything is read), strict UTF-8,
 * a leading BOM skipped, and the reader's `DecodeFailure` returned as an
 * error. Never throws for bad input.
 */
export function readXmlDocument<T>(
  input: string | Uint8Array,
  format: 'gpx' | 'tcx',
  maxBytes: number,
  read: (text: string) => T,
): DecodeResult<T> {
  const failure = (code: 'tooLarge' | 'encoding', message: string): DecodeResult<T> => ({
    ok: false,
    error: { code, messageId: messageIdOf(format, code), message, line: 1, column: 1 },
  });
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > maxBytes) return failure('tooLarge', `The file is larger than ${maxBytes} bytes`);
  let text: string;
  try {
    text =
      typeof input === 'string' ? input : new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return failure('encoding', 'The file is not UTF-8 text');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return { ok: true, value: read(text) };
  } catch (error) {
    if (error instanceof DecodeFailure) return { ok: false, error: error.detail };
    throw error;
  }
}
