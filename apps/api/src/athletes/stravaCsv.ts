// Strava's bulk-export `activities.csv`: written by our export, read by the archive import.
// One place for its columns, its activity types and its date format, so what we write is
// what we read back.

/** Strava's activity type of each of our sport types (0-11), and back. */
const STRAVA_TYPES: Readonly<Record<number, string>> = {
  0: 'Workout',
  1: 'Run',
  2: 'Ride',
  3: 'Workout',
  4: 'Workout',
  5: 'Swim',
  6: 'Workout',
  7: 'Soccer',
  8: 'Tennis',
  9: 'Workout',
  10: 'Workout',
  11: 'Walk',
};

const SPORT_OF_STRAVA: Readonly<Record<string, number>> = {
  Ride: 2,
  VirtualRide: 2,
  EBikeRide: 2,
  MountainBikeRide: 2,
  GravelRide: 2,
  Handcycle: 2,
  Velomobile: 2,
  Run: 1,
  VirtualRun: 1,
  TrailRun: 1,
  Swim: 5,
  Walk: 11,
  Hike: 11,
  Soccer: 7,
  Tennis: 8,
  Workout: 0,
};

/** Strava's activity type for our sport type. */
export const stravaTypeOf = (sportType: number, indoor: boolean): string =>
  sportType === 2 && indoor ? 'VirtualRide' : (STRAVA_TYPES[sportType] ?? 'Workout');

/** Our sport type for Strava's activity type (undefined: keep what the file says). */
export const sportOfStravaType = (type: string): number | undefined =>
  SPORT_OF_STRAVA[type.replace(/\s+/g, '')];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Strava's "Activity Date" (UTC, English): "Mar 1, 2031, 8:00:00 AM". */
export function stravaDate(date: Date): string {
  const hours = date.getUTCHours();
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}, ` +
    `${hours % 12 || 12}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} ` +
    (hours < 12 ? 'AM' : 'PM')
  );
}

/** The columns we write, in Strava's order (its export repeats "Elapsed Time" and "Distance"). */
export const STRAVA_COLUMNS = [
  'Activity ID',
  'Activity Date',
  'Activity Name',
  'Activity Type',
  'Activity Description',
  'Elapsed Time',
  'Distance',
  'Max Heart Rate',
  'Commute',
  'Activity Gear',
  'Filename',
  'Elapsed Time',
  'Moving Time',
  'Distance',
  'Max Speed',
  'Average Speed',
  'Elevation Gain',
  'Average Heart Rate',
  'Average Watts',
  'Calories',
] as const;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A text a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or CR) gets a leading
 * apostrophe, which `readStravaCsv` takes off again, unless the whole text is one plain
 * number ("-2"): "-2+3+cmd|..." starts like a number and is still a formula (OWASP's CSV
 * injection rule).
 */
function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text))
    text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A CSV row, with CRLF as RFC 4180 has it. */
export const csvRow = (cells: readonly (string | number | null | undefined)[]): string =>
  `${cells.map(csvCell).join(',')}\r\n`;

/** What the archive import takes from a row of `activities.csv`. */
export interface StravaActivity {
  readonly id: string;
  readonly name?: string;
  readonly type?: string;
  readonly description?: string;
  readonly gear?: string;
  /** The activity's file inside the archive (`activities/123.fit.gz`), when it has one. */
  readonly filename?: string;
}

/** A CSV that cannot be read, with the line where it went wrong. */
export class CsvError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(`${message} (line ${line})`);
    this.name = 'CsvError';
    this.line = line;
  }
}

/** The rows of a CSV text (RFC 4180: quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string, maxRows = 1_000_000): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  // Whether the cell was quoted: an empty quoted cell is still a cell of the row.
  let quoted = false;
  let line = 1;
  const endCell = () => {
    row.push(cell);
    cell = '';
    quoted = false;
  };
  const endRow = () => {
    const blank = row.length === 0 && cell === '' && !quoted;
    endCell();
    if (!blank) rows.push(row);
    if (rows.length > maxRows) throw new CsvError(`More than ${maxRows} rows`, line);
    row = [];
  };
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      if (cell !== '' || quoted) throw new CsvError('A quote inside an unquoted cell', line);
      i = readQuoted(text, i + 1, line, (value, lines) => {
        cell = value;
        line += lines;
      });
      quoted = true;
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n')
        throw new CsvError('Text after a quoted cell', line);
      continue;
    }
    if (char === ',') endCell();
    else if (char === '\n' || char === '\r') {
      endRow();
      if (char === '\r' && text[i + 1] === '\n') i++;
      line++;
    } else cell += char;
    i++;
  }
  if (cell !== '' || quoted || row.length > 0) endRow();
  return rows;
}

/** Reads a quoted cell from after its opening quote; returns the position after its close. */
function readQuoted(
  text: string,
  from: number,
  line: number,
  done: (value: string, lines: number) => void,
): number {
  let value = '';
  let i = from;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) throw new CsvError('A quoted cell is never closed', line);
    value += text.slice(i, quote);
    if (text[quote + 1] !== '"') {
      done(value, value.split('\n').length - 1);
      return quote + 1;
    }
    value += '"';
    i = quote + 2;
  }
}

/** Takes off the apostrophe `csvCell` put before a would-be formula. */
const unescaped = (text: string) => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

/**
 * The activities of a Strava `activities.csv` (ours or Strava's): the first column of each
 * name counts (Strava repeats some); unknown columns are ignored. Throws `CsvError`.
 */
export function readStravaCsv(text: string): StravaActivity[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) return [];
  const column = (name: string) => header.indexOf(name);
  const id = column('Activity ID');
  if (id === -1) throw new CsvError('No "Activity ID" column: not a Strava activities.csv', 1);
  const at = {
    name: column('Activity Name'),
    type: column('Activity Type'),
    description: column('Activity Description'),
    gear: column('Activity Gear'),
    filename: column('Filename'),
  };
  return rows.map((cells) => {
    const read = (index: number) => {
      const value = index === -1 ? '' : unescaped((cells[index] ?? '').trim());
      return value === '' ? undefined : value;
    };
    const fields = {
      name: read(at.name),
      type: read(at.type),
      description: read(at.description),
      gear: read(at.gear),
      filename: read(at.filename),
    };
    return {
      id: cells[id]?.trim() ?? '',
      ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    };
  });
}
