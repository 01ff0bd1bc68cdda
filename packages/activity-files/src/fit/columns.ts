// The record columns the FIT reader fills: one growing Float64Array per column.
import { recordColumnNames, type RecordColumns } from './types.ts';

// `recordColumnNames` are the first slots, in order.
export const TIMESTAMP_SLOT = recordColumnNames.indexOf('timestamp');
export const SPEED_SLOT = recordColumnNames.indexOf('speed');
export const DISTANCE_SLOT = recordColumnNames.indexOf('distance');

// Grows one Float64Array per column; columns are addressed by slot number in the hot path.
export class ColumnBuilder {
  length = 0;
  private capacity = 1024;
  readonly arrays: Float64Array[] = [];
  private readonly slots = new Map<string, number>();

  constructor() {
    for (const name of recordColumnNames) this.slot(name);
  }

  slot(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.arrays.length;
      this.slots.set(name, slot);
      this.arrays.push(new Float64Array(this.capacity).fill(Number.NaN));
    }
    return slot;
  }

  private reserved = false;

  // Makes room for `rows` more rows at once (a guess from the bytes left), within a bound;
  // once only: files that define records again and again (a Wahoo ELEMNT file has 838
  // definitions, records in 10 sizes) would otherwise regrow every column on a guess.
  reserve(rows: number): void {
    if (this.reserved) return;
    this.reserved = true;
    const wanted = Math.min(this.length + rows, this.length + (1 << 20));
    if (wanted > this.capacity) this.grow(wanted);
  }

  /** Adds `count` rows; returns the first. */
  addRows(count: number): number {
    if (this.length + count > this.capacity)
      this.grow(Math.max(this.capacity * 2, this.length + count));
    const first = this.length;
    this.length += count;
    return first;
  }

  addRow(): number {
    if (this.length === this.capacity) this.grow(this.capacity * 2);
    return this.length++;
  }

  private grow(capacity: number): void {
    this.capacity = capacity;
    for (let i = 0; i < this.arrays.length; i++) {
      const grown = new Float64Array(capacity).fill(Number.NaN);
      grown.set(this.arrays[i]!.subarray(0, this.length));
      this.arrays[i] = grown;
    }
  }

  finish(): RecordColumns {
    // A column at least half used is handed out as a view rather than copied.
    const take = (slot: number) => {
      const array = this.arrays[slot]!;
      return this.length * 2 >= this.capacity
        ? array.subarray(0, this.length)
        : array.slice(0, this.length);
    };
    const developer: Record<string, Float64Array> = {};
    const result: Record<string, unknown> = { length: this.length, developer };
    for (const [name, slot] of this.slots) {
      if (name.startsWith('dev:')) developer[name.slice(4)] = take(slot);
      else result[name] = take(slot);
    }
    return result as RecordColumns;
  }
}
