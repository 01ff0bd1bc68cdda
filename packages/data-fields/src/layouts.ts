/** How large a slot draws its field: charts and gauges need Large. */
export type SlotSize = 'Large' | 'Medium' | 'Small';
export const slotSizes = ['Large', 'Medium', 'Small'] as const satisfies readonly SlotSize[];

/**
 * One slot of a layout template, as a rectangle in fractions of the screen (0..1), so a
 * preview can draw it at any device's proportions.
 */
export interface Slot {
  readonly size: SlotSize;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A page layout template: the `pid` a device page stores, and its slots top to bottom. */
export interface LayoutTemplate {
  readonly pid: number;
  readonly slots: readonly Slot[];
}

// Rows, top to bottom: L = one Large slot, M = one Medium slot, S = two Small slots side by
// side. Row heights are weights: Large 3, Medium and Small 2; a lone Large fills the screen.
type Row = 'L' | 'M' | 'S';
const rowsOfTemplates: readonly (readonly Row[])[] = [
  ['L'],
  ['L', 'L'],
  ['L', 'M', 'M'],
  ['M', 'M', 'M'],
  ['L', 'S'],
  ['M', 'M', 'M', 'M'],
  ['L', 'M', 'S'],
  ['M', 'S', 'M'],
  ['L', 'S', 'S'],
  ['M', 'S', 'S'],
  ['M', 'M', 'S', 'S'],
  ['S', 'S', 'S'],
  ['L', 'S', 'S', 'S'],
  ['M', 'S', 'S', 'S'],
  ['S', 'S', 'S', 'S'],
  ['M', 'S', 'S', 'S', 'S'],
  ['S', 'S', 'S', 'S', 'S'],
];

function templateFromRows(pid: number, rows: readonly Row[]): LayoutTemplate {
  const weight = (row: Row) => (row === 'L' ? 3 : 2);
  const total = rows.reduce((sum, row) => sum + weight(row), 0);
  const slots: Slot[] = [];
  let y = 0;
  for (const row of rows) {
    const height = weight(row) / total;
    if (row === 'S') {
      slots.push(
        { size: 'Small', x: 0, y, width: 0.5, height },
        { size: 'Small', x: 0.5, y, width: 0.5, height },
      );
    } else {
      slots.push({ size: row === 'L' ? 'Large' : 'Medium', x: 0, y, width: 1, height });
    }
    y += height;
  }
  return Object.freeze({ pid, slots: Object.freeze(slots.map((slot) => Object.freeze(slot))) });
}

/**
 * The 17 layout templates (pid 0 to 16), from one full-screen field to ten fields.
 *
 * @example
 * layoutTemplates[4].slots.map((slot) => slot.size); // ['Large', 'Small', 'Small']
 */
export const layoutTemplates: readonly LayoutTemplate[] = Object.freeze(
  rowsOfTemplates.map((rows, pid) => templateFromRows(pid, rows)),
);

/** The template with a `pid`, or `undefined` when no template has it. */
export function layoutTemplate(pid: number): LayoutTemplate | undefined {
  return Number.isInteger(pid) ? layoutTemplates[pid] : undefined;
}

/** The most slots any template has. */
export const MAX_SLOTS_PER_PAGE = Math.max(
  ...layoutTemplates.map((template) => template.slots.length),
);
