import { describe, expect, it } from 'vitest';
import { csvRow, readStravaCsv } from './stravaCsv.ts';

describe('activities.csv cells', () => {
  it('writes every would-be formula inert, and reads the name back as it was', () => {
    const names = [
      '=HYPERLINK("x")',
      "-2+3+cmd|'/c calc'!A1",
      '+1+1',
      '@SUM(A1)',
      '\tTab',
      '\rReturn',
      '-',
      '+1e3',
    ];
    for (const name of names) {
      const row = csvRow(['1', name, 'activities/1.fit']);
      // The cell's first character is no longer one a spreadsheet evaluates.
      const cell = row.startsWith('1,"') ? row.slice(3) : row.slice(2);
      expect(cell[0], name).toBe("'");
      const [activity] = readStravaCsv(`Activity ID,Activity Name,Filename\r\n${row}`);
      expect(activity!.name, name).toBe(name);
    }
  });

  it('leaves plain numbers and ordinary names as they are', () => {
    expect(csvRow(['-2', '+3.5', -7, 'Morning ride'])).toBe('-2,+3.5,-7,Morning ride\r\n');
  });
});
