import { describe, expect, it } from 'vitest';
import { deviceProfiles } from './profiles.ts';
import { problemText, type Translate } from './problemText.ts';
import { validate } from './validate.ts';
import { fieldByKey } from './fieldCatalogue.ts';
import { layoutTemplate } from './layouts.ts';

// A German catalogue's few messages, as a translator writes them.
const german: Record<string, string> = {
  'dataFields.problem.needsLargeSlot': '{field} braucht ein großes Feld.',
  'dataFields.problem.fieldNotSupported': '{model} kann {field} nicht anzeigen.',
  'dataFields.ElevationLineChart.name': 'Höhendiagramm',
};
const t: Translate = (id, values = {}) =>
  (german[id] ?? id).replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

describe('problemText: a problem in the reader’s words', () => {
  it('names the field by its name in the reader’s language, never its key', () => {
    const chart = fieldByKey('ElevationLineChart')!;
    const profile = deviceProfiles.NAV;
    // A layout whose first slot is not Large, with the elevation chart in it.
    const pid = profile.layouts.find(
      (id) => layoutTemplate(id)?.slots[0]?.size !== 'Large' && layoutTemplate(id)!.slots.length,
    )!;
    const slots = layoutTemplate(pid)!.slots.length;
    const problems = validate(
      {
        deviceModel: profile.model,
        pages: [{ pid, items: [chart.id, ...Array.from({ length: slots - 1 }, () => 1)] }],
      } as never,
      profile,
    );
    const large = problems.find((p) => p.messageId === 'dataFields.problem.needsLargeSlot')!;
    expect(large.values?.field).toBe('ElevationLineChart');
    expect(problemText(large, t)).toBe('Höhendiagramm braucht ein großes Feld.');
  });

  it('leaves values that are no field as they are', () => {
    const text = problemText(
      {
        path: 'pages',
        messageId: 'dataFields.problem.fieldNotSupported',
        message: '',
        values: { model: 'G+', field: 'NoSuchField' },
      },
      t,
    );
    expect(text).toBe('G+ kann NoSuchField nicht anzeigen.');
  });
});
