import {
  fieldById,
  fieldByKey,
  type ChartType,
  type DataField,
  type FieldId,
  type FieldKey,
} from './fieldCatalogue.ts';
import { layoutTemplate, type LayoutTemplate } from './layouts.ts';
import type { LayoutDocument, LayoutPage } from './panelsJson.ts';
import type { DeviceProfile } from './profiles.ts';
import { fail, ok, problem, type Result } from './result.ts';
import { pageProblems } from './validate.ts';

// Fields a new or re-laid-out slot gets first, in this order, when the profile has them.
const defaultOrder: readonly FieldKey[] = [
  'Speed',
  'Distance',
  'MovingTime',
  'Heartrate',
  'Cadence',
  'Power',
  'Elevation',
  'CurrentTime',
  'AvgMovingSpeed',
  'ElevationGain',
  'Grade',
  'AvgPower',
  'AvgHR',
  'MaxSpeed',
  'TotalTime',
  'Calories',
];

function withPages(document: LayoutDocument, pages: readonly LayoutPage[]): LayoutDocument {
  return {
    ...document,
    pages: pages.map((page, index) => (page.index === index ? page : { ...page, index })),
  };
}

function pageAt(document: LayoutDocument, index: number): Result<LayoutPage> {
  const page = Number.isInteger(index) ? document.pages[index] : undefined;
  return page
    ? ok(page)
    : fail([
        problem('pages', 'pageOutOfRange', `There is no page ${index}`, {
          index,
          count: document.pages.length,
        }),
      ]);
}

function templateFor(profile: DeviceProfile, pid: number): Result<LayoutTemplate> {
  const template = layoutTemplate(pid);
  if (!template)
    return fail([problem('pid', 'unknownLayout', `Layout ${pid} does not exist`, { pid })]);
  if (!profile.layouts.includes(pid))
    return fail([
      problem('pid', 'layoutNotSupported', `${profile.name} cannot show layout ${pid}`, {
        pid,
        model: profile.model,
      }),
    ]);
  return ok(template);
}

function fits(
  field: DataField,
  template: LayoutTemplate,
  slot: number,
  profile: DeviceProfile,
): boolean {
  return (
    profile.fields.includes(field.key) &&
    (!field.needsLargeSlot || template.slots[slot]?.size === 'Large')
  );
}

// Fills a template's slots: first the kept fields, in order, each in the first free slot
// that fits it, then defaults the page does not show yet.
function fillSlots(
  template: LayoutTemplate,
  profile: DeviceProfile,
  keep: readonly number[],
): number[] {
  const items: (number | undefined)[] = template.slots.map(() => undefined);
  for (const id of keep) {
    const field = fieldById(id);
    if (!field) continue;
    const slot = items.findIndex(
      (item, index) => item === undefined && fits(field, template, index, profile),
    );
    if (slot >= 0) items[slot] = id;
  }
  const candidates = [...defaultOrder, ...profile.fields]
    .map((key) => fieldByKey(key))
    .filter(
      (field): field is DataField =>
        field !== undefined && !field.needsLargeSlot && profile.fields.includes(field.key),
    );
  for (let slot = 0; slot < items.length; slot++) {
    if (items[slot] !== undefined) continue;
    const next = candidates.find((field) => !items.includes(field.id)) ?? candidates[0];
    items[slot] = next?.id ?? 0;
  }
  return items as number[];
}

function chartTypesFor(
  items: readonly number[],
  previous?: readonly (ChartType | null)[],
  previousItems?: readonly number[],
): (ChartType | null)[] | undefined {
  const types = items.map((id) => {
    if (fieldById(id)?.display !== 'chart') return null;
    const before = previousItems?.indexOf(id) ?? -1;
    return (before >= 0 ? previous?.[before] : undefined) ?? 'line';
  });
  return types.some((type) => type !== null) ? types : undefined;
}

function buildPage(
  index: number,
  pid: number,
  items: number[],
  extra: LayoutPage['extra'] = {},
  previous?: LayoutPage,
): LayoutPage {
  const chartTypes = chartTypesFor(items, previous?.chartTypes, previous?.items);
  return { index, pid, items, ...(chartTypes ? { chartTypes } : {}), extra };
}

/**
 * Adds a page at the end (or at `at`) with layout `pid`, its slots filled with sensible
 * fields the profile supports.
 */
export function addPage(
  document: LayoutDocument,
  profile: DeviceProfile,
  pid: number,
  at: number = document.pages.length,
): Result<LayoutDocument> {
  if (profile.pages === 'fixed')
    return fail([
      problem('pages', 'fixedPages', `${profile.name} has ${profile.maxPages} fixed pages`, {
        count: profile.maxPages,
      }),
    ]);
  if (document.pages.length >= profile.maxPages)
    return fail([
      problem('pages', 'tooManyPages', `${profile.name} shows at most ${profile.maxPages} pages`, {
        max: profile.maxPages,
        actual: document.pages.length + 1,
      }),
    ]);
  if (!Number.isInteger(at) || at < 0 || at > document.pages.length)
    return fail([
      problem('pages', 'pageOutOfRange', `There is no position ${at}`, {
        index: at,
        count: document.pages.length,
      }),
    ]);
  const template = templateFor(profile, pid);
  if (!template.ok) return template;
  const pages = [...document.pages];
  pages.splice(at, 0, buildPage(at, pid, fillSlots(template.value, profile, [])));
  return ok(withPages(document, pages));
}

/** Deletes page `index`, keeping at least the profile's minimum. */
export function deletePage(
  document: LayoutDocument,
  profile: DeviceProfile,
  index: number,
): Result<LayoutDocument> {
  if (profile.pages === 'fixed')
    return fail([
      problem('pages', 'fixedPages', `${profile.name} has ${profile.maxPages} fixed pages`, {
        count: profile.maxPages,
      }),
    ]);
  const page = pageAt(document, index);
  if (!page.ok) return page;
  if (document.pages.length <= profile.minPages)
    return fail([
      problem('pages', 'tooFewPages', `${profile.name} needs at least ${profile.minPages} page`, {
        min: profile.minPages,
        actual: document.pages.length - 1,
      }),
    ]);
  return ok(
    withPages(
      document,
      document.pages.filter((_, position) => position !== index),
    ),
  );
}

/**
 * Gives page `index` layout `pid`, keeping its fields where the new slots allow (charts only
 * in Large slots) and filling new slots with fields the page does not show yet.
 */
export function changeLayout(
  document: LayoutDocument,
  profile: DeviceProfile,
  index: number,
  pid: number,
): Result<LayoutDocument> {
  const page = pageAt(document, index);
  if (!page.ok) return page;
  const template = templateFor(profile, pid);
  if (!template.ok) return template;
  const items = fillSlots(template.value, profile, page.value.items);
  const pages = document.pages.map((existing, position) =>
    position === index ? buildPage(index, pid, items, existing.extra, existing) : existing,
  );
  return ok(withPages(document, pages));
}

/** Puts field `field` (key or numeric id) in slot `slot` of page `index`. */
export function setField(
  document: LayoutDocument,
  profile: DeviceProfile,
  index: number,
  slot: number,
  field: FieldKey | FieldId,
  chartType?: ChartType,
): Result<LayoutDocument> {
  const page = pageAt(document, index);
  if (!page.ok) return page;
  const chosen = typeof field === 'number' ? fieldById(field) : fieldByKey(field);
  if (!chosen)
    return fail([
      problem('field', 'unknownField', `Field ${String(field)} does not exist`, {
        id: String(field),
      }),
    ]);
  if (!Number.isInteger(slot) || slot < 0 || slot >= page.value.items.length)
    return fail([
      problem(`pages[${index}].items`, 'slotOutOfRange', `Page ${index} has no slot ${slot}`, {
        slot,
        count: page.value.items.length,
      }),
    ]);
  const items = page.value.items.map((id, position) => (position === slot ? chosen.id : id));
  const updated = buildPage(index, page.value.pid, items, page.value.extra, page.value);
  const withType =
    chartType && chosen.display === 'chart'
      ? {
          ...updated,
          chartTypes: (updated.chartTypes ?? items.map(() => null)).map((type, position) =>
            position === slot ? chartType : type,
          ),
        }
      : updated;
  const problems = pageProblems(withType, index, profile).filter(
    (found) => found.path === `pages[${index}].items[${slot}]`,
  );
  if (problems.length > 0) return fail(problems);
  return ok(
    withPages(
      document,
      document.pages.map((existing, position) => (position === index ? withType : existing)),
    ),
  );
}

/** Sets how the chart in slot `slot` of page `index` is drawn. */
export function setChartType(
  document: LayoutDocument,
  index: number,
  slot: number,
  chartType: ChartType,
): Result<LayoutDocument> {
  const page = pageAt(document, index);
  if (!page.ok) return page;
  const id = page.value.items[slot];
  if (id === undefined || fieldById(id)?.display !== 'chart')
    return fail([
      problem(
        `pages[${index}].items[${slot}]`,
        'chartTypeOnValue',
        `Slot ${slot} of page ${index} holds no chart`,
      ),
    ]);
  const chartTypesOfPage = (page.value.chartTypes ?? page.value.items.map(() => null)).map(
    (type, position) => (position === slot ? chartType : type),
  );
  return ok(
    withPages(
      document,
      document.pages.map((existing, position) =>
        position === index ? { ...existing, chartTypes: chartTypesOfPage } : existing,
      ),
    ),
  );
}

/** Moves page `from` to position `to`; pages are renumbered. */
export function movePage(
  document: LayoutDocument,
  from: number,
  to: number,
): Result<LayoutDocument> {
  const page = pageAt(document, from);
  if (!page.ok) return page;
  if (!Number.isInteger(to) || to < 0 || to >= document.pages.length)
    return fail([
      problem('pages', 'pageOutOfRange', `There is no position ${to}`, {
        index: to,
        count: document.pages.length,
      }),
    ]);
  const pages = document.pages.filter((_, position) => position !== from);
  pages.splice(to, 0, page.value);
  return ok(withPages(document, pages));
}

/**
 * A new document for a device with the profile's default pages: NAV-class devices start
 * with three pages, fixed-page devices with all of theirs.
 */
export function defaultDocument(
  profile: DeviceProfile,
  sn: string,
  updatedAt: number,
): LayoutDocument {
  const pids =
    profile.pages === 'fixed'
      ? profile.layouts.slice(-profile.maxPages).reverse()
      : [profile.layouts.find((pid) => pid === 11) ?? profile.layouts[0] ?? 0, 2, 0];
  const pages = pids.slice(0, profile.maxPages).map((pid, index) => {
    const template = layoutTemplate(pid) ?? layoutTemplate(0)!;
    return buildPage(index, template.pid, fillSlots(template, profile, []));
  });
  return { version: '2.0.0', deviceModel: profile.model, sn, updatedAt, pages, extra: {} };
}
