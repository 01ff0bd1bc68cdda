import { chartTypes, type ChartType, type FieldId } from './fieldCatalogue.ts';
import { fail, ok, problem, type Problem, type Result } from './result.ts';

/** One data page of a device: its layout template and the field id in each slot. */
export interface LayoutPage {
  /** Position of the page; always equals its place in `pages` after an operation. */
  readonly index: number;
  /** The layout template (`layoutTemplates[pid]`). */
  readonly pid: number;
  /** Field ids, one per slot of the template, top to bottom, left to right (unknown ones kept). */
  readonly items: readonly FieldId[];
  /** Per slot: how a chart field is drawn (`null` for slots without a chart); absent when the page has no chart. */
  readonly chartTypes?: readonly (ChartType | null)[];
  /** Members of the page object this version does not know, kept for the round trip. */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** A device's data pages: the contents of its `panels.json`. */
export interface LayoutDocument {
  readonly version: string;
  readonly deviceModel: string;
  readonly sn: string;
  /** Seconds since the Unix epoch. */
  readonly updatedAt: number;
  readonly pages: readonly LayoutPage[];
  /** Members of the file this version does not know, kept for the round trip. */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** Limits applied while reading a file, before any profile rule. */
export const PANELS_LIMITS = Object.freeze({
  /** Largest file read, in characters. */
  maxChars: 256 * 1024,
  maxPages: 64,
  maxItemsPerPage: 32,
  maxStringLength: 256,
});

const DOCUMENT_KEYS = ['version', 'device_model', 'sn', 'updated_at', 'pages_count', 'pages'];
const PAGE_KEYS = ['index', 'pid', 'count', 'items', 'chart_types'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function extraMembers(
  object: Record<string, unknown>,
  known: readonly string[],
): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    if (!known.includes(key))
      Object.defineProperty(extra, key, {
        value: object[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return extra;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

class Reader {
  readonly problems: Problem[] = [];

  string(object: Record<string, unknown>, key: string, path: string): string {
    const value = object[key];
    if (typeof value !== 'string') {
      this.wrongType(`${path}${key}`, 'string', value);
      return '';
    }
    if (value.length > PANELS_LIMITS.maxStringLength) {
      this.problems.push(
        problem(
          `${path}${key}`,
          'tooLong',
          `${path}${key} is longer than ${PANELS_LIMITS.maxStringLength} characters`,
          { max: PANELS_LIMITS.maxStringLength },
        ),
      );
      return '';
    }
    return value;
  }

  integer(object: Record<string, unknown>, key: string, path: string, min = 0): number {
    const value = object[key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      this.wrongType(
        `${path}${key}`,
        min === 0 ? 'non-negative integer' : `integer >= ${min}`,
        value,
      );
      return min;
    }
    return value;
  }

  wrongType(path: string, expected: string, value: unknown): void {
    if (value === undefined) {
      this.problems.push(problem(path, 'missing', `${path} is missing`));
    } else {
      this.problems.push(
        problem(path, 'wrongType', `${path} must be a ${expected}, not ${typeName(value)}`, {
          expected,
          actual: typeName(value),
        }),
      );
    }
  }
}

function readPage(reader: Reader, raw: unknown, position: number): LayoutPage | undefined {
  const path = `pages[${position}]`;
  if (!isRecord(raw)) {
    reader.wrongType(path, 'object', raw);
    return undefined;
  }
  const index = reader.integer(raw, 'index', `${path}.`);
  if (index !== position && typeof raw.index === 'number') {
    reader.problems.push(
      problem(
        `${path}.index`,
        'indexMismatch',
        `${path}.index is ${index} but the page is number ${position}`,
        { expected: position, actual: index },
      ),
    );
  }
  const pid = reader.integer(raw, 'pid', `${path}.`);
  const count = reader.integer(raw, 'count', `${path}.`);
  const rawItems = raw.items;
  const items: number[] = [];
  if (!Array.isArray(rawItems)) {
    reader.wrongType(`${path}.items`, 'array', rawItems);
  } else if (rawItems.length > PANELS_LIMITS.maxItemsPerPage) {
    reader.problems.push(
      problem(
        `${path}.items`,
        'tooManyItems',
        `${path}.items has ${rawItems.length} items; at most ${PANELS_LIMITS.maxItemsPerPage} are read`,
        { max: PANELS_LIMITS.maxItemsPerPage },
      ),
    );
  } else {
    rawItems.forEach((item: unknown, slot) => {
      if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 0) {
        reader.wrongType(`${path}.items[${slot}]`, 'non-negative integer', item);
      } else {
        items.push(item);
      }
    });
    if (typeof raw.count === 'number' && count !== rawItems.length) {
      reader.problems.push(
        problem(
          `${path}.count`,
          'countMismatch',
          `${path}.count is ${count} but the page has ${rawItems.length} items`,
          { expected: rawItems.length, actual: count },
        ),
      );
    }
  }
  let pageChartTypes: (ChartType | null)[] | undefined;
  if (raw.chart_types !== undefined) {
    if (!Array.isArray(raw.chart_types) || raw.chart_types.length !== items.length) {
      reader.wrongType(`${path}.chart_types`, 'array as long as items', raw.chart_types);
    } else {
      pageChartTypes = raw.chart_types.map((type: unknown, slot) => {
        if (type === null || chartTypes.includes(type as ChartType))
          return type as ChartType | null;
        reader.problems.push(
          problem(
            `${path}.chart_types[${slot}]`,
            'invalidChartType',
            `${path}.chart_types[${slot}] must be "line", "area" or null`,
          ),
        );
        return null;
      });
    }
  }
  return {
    index: position,
    pid,
    items,
    ...(pageChartTypes ? { chartTypes: pageChartTypes } : {}),
    extra: extraMembers(raw, PAGE_KEYS),
  };
}

/**
 * Reads a `panels.json` (text or already-parsed JSON) into a layout document, checking
 * shapes and types only; `validate` checks it against a device profile. Every problem is
 * listed; nothing throws, whatever the input.
 *
 * @example
 * const result = parsePanels('{"version":"2.0.0","device_model":"NAV","sn":"X1","updated_at":1718782574,"pages_count":1,"pages":[{"index":0,"pid":0,"count":1,"items":[103]}]}');
 * if (result.ok) result.value.pages[0]?.items; // [103]
 */
export function parsePanels(input: unknown): Result<LayoutDocument> {
  let json = input;
  if (typeof input === 'string') {
    if (input.length > PANELS_LIMITS.maxChars) {
      return fail([
        problem('', 'tooLarge', `The file is larger than ${PANELS_LIMITS.maxChars} characters`, {
          max: PANELS_LIMITS.maxChars,
        }),
      ]);
    }
    try {
      json = JSON.parse(input);
    } catch (error) {
      return fail([
        problem('', 'invalidJson', `The file is not valid JSON: ${(error as Error).message}`),
      ]);
    }
  }
  const reader = new Reader();
  if (!isRecord(json)) {
    reader.wrongType('', 'JSON object', json);
    return fail(reader.problems);
  }
  const version = reader.string(json, 'version', '');
  const deviceModel = reader.string(json, 'device_model', '');
  const sn = reader.string(json, 'sn', '');
  const updatedAt = reader.integer(json, 'updated_at', '');
  const pagesCount = reader.integer(json, 'pages_count', '');
  const pages: LayoutPage[] = [];
  if (!Array.isArray(json.pages)) {
    reader.wrongType('pages', 'array', json.pages);
  } else if (json.pages.length > PANELS_LIMITS.maxPages) {
    reader.problems.push(
      problem(
        'pages',
        'tooManyPages',
        `The file has ${json.pages.length} pages; at most ${PANELS_LIMITS.maxPages} are read`,
        { max: PANELS_LIMITS.maxPages },
      ),
    );
  } else {
    json.pages.forEach((raw: unknown, position) => {
      const page = readPage(reader, raw, position);
      if (page) pages.push(page);
    });
    if (typeof json.pages_count === 'number' && pagesCount !== json.pages.length) {
      reader.problems.push(
        problem(
          'pages_count',
          'pagesCountMismatch',
          `pages_count is ${pagesCount} but the file has ${json.pages.length} pages`,
          { expected: json.pages.length, actual: pagesCount },
        ),
      );
    }
  }
  if (reader.problems.length > 0) return fail(reader.problems);
  return ok({
    version,
    deviceModel,
    sn,
    updatedAt,
    pages,
    extra: extraMembers(json, DOCUMENT_KEYS),
  });
}

/** The JSON object of a document as devices store it (`count` and `pages_count` derived). */
export function toPanelsObject(document: LayoutDocument): Record<string, unknown> {
  return {
    version: document.version,
    device_model: document.deviceModel,
    sn: document.sn,
    updated_at: document.updatedAt,
    pages_count: document.pages.length,
    pages: document.pages.map((page, index) => ({
      index,
      pid: page.pid,
      count: page.items.length,
      items: [...page.items],
      ...(page.chartTypes ? { chart_types: [...page.chartTypes] } : {}),
      ...page.extra,
    })),
    ...document.extra,
  };
}

/**
 * Writes a document as `panels.json` text: known members in the devices' order, then the
 * members this version did not know, as they were read.
 */
export function serializePanels(document: LayoutDocument): string {
  return JSON.stringify(toPanelsObject(document));
}
