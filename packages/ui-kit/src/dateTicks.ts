/**
 * The date axis of the training charts (fitness, efficiency): labels that are distinct dates
 * and never overlap, at any width from a phone's 360 px up. The span picks the label
 * (day and month; month and year; the year alone), the width how many fit: each label is
 * given the room of its longest text at the axis' 10 px type plus a gap. Ticks sit on whole
 * UTC days, first days of months or first days of years, so two never read the same.
 */
const DAY_MS = 86_400_000;
/** About the width of a character of the axis' 10 px labels, and the gap between labels. */
const CHAR_PX = 6.2;
const GAP_PX = 14;

/** The room a label of the axis' 10 px type takes, with the gap to the next one. */
export const labelRoom = (longest: number) => longest * CHAR_PX + GAP_PX;

type Unit = 'day' | 'month' | 'year';

const formats: Record<Unit, Intl.DateTimeFormatOptions> = {
  day: { day: 'numeric', month: 'short' },
  month: { month: 'short', year: 'numeric' },
  year: { year: 'numeric' },
};

/** Every whole day, first of a month or first of a year (UTC) within `[first, last]`. */
function candidates(first: number, last: number, unit: Unit): number[] {
  const start = new Date(first);
  let year = start.getUTCFullYear();
  let month = unit === 'year' ? 0 : start.getUTCMonth();
  let day = unit === 'day' ? start.getUTCDate() : 1;
  const out: number[] = [];
  for (;;) {
    const time = Date.UTC(year, month, day);
    if (time > last) break;
    if (time >= first) out.push(time);
    if (unit === 'day') day++;
    else if (unit === 'month') month++;
    else year++;
    // Date.UTC rolls over days and months itself.
    const next = new Date(Date.UTC(year, month, day));
    year = next.getUTCFullYear();
    month = next.getUTCMonth();
    day = next.getUTCDate();
  }
  return out;
}

/** Steps that read naturally for each unit (every 2nd day, every quarter, every 5 years). */
const steps: Record<Unit, number[]> = {
  day: [1, 2, 3, 7, 14],
  month: [1, 2, 3, 4, 6, 12],
  year: [1, 2, 5, 10, 20, 50],
};

/**
 * Tick times (ms, UTC) between `first` and `last` for an axis `width` px wide, and their
 * labels in `locale`.
 */
export function dateTicks(
  first: number,
  last: number,
  width: number,
  locale: string,
): { values: number[]; format: (time: number) => string } {
  const spanDays = (last - first) / DAY_MS;
  const unit: Unit = spanDays > 3 * 365 ? 'year' : spanDays > 120 ? 'month' : 'day';
  const formatter = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...formats[unit] });
  const format = (time: number) => formatter.format(time);
  const all = candidates(first, last, unit);
  if (all.length === 0) return { values: [first], format };
  const longest = Math.max(...all.map((time) => format(time).length));
  const fit = Math.max(1, Math.floor(width / labelRoom(longest)));
  const step =
    steps[unit].find((candidate) => Math.ceil(all.length / candidate) <= fit) ??
    Math.ceil(all.length / fit);
  return { values: all.filter((_, index) => index % step === 0), format };
}
