import { translatorFor, type MessageId } from '@xoss/i18n';
import { describe, expect, it } from 'vitest';
import { rideSeries } from './rideSeries.ts';

const kmh = { speedUnit: 'km/h', speedFactor: 3.6, elevationUnit: 'm', elevationFactor: 1 };

describe('the ride page chart series', () => {
  it("draws a muscle-oxygen sensor's SmO2 and THb, labelled in the rider's language", async () => {
    const german = await translatorFor('de');
    const t = (id: MessageId) => german.t(id);
    // A Moxy file: the time, SmO2 and THb only (one sample without a value).
    const series = rideSeries(
      { time: [0, 1, 2], smo2: [61.5, null, 60.2], thb: [12.34, 12.3, 12.31] },
      t,
      kmh,
    );
    expect(series.map(({ id, label, unit, digits }) => ({ id, label, unit, digits }))).toEqual([
      { id: 'smo2', label: 'Muskelsauerstoff (SmO2)', unit: '%', digits: 1 },
      { id: 'thb', label: 'Gesamthämoglobin (THb)', unit: 'g/dL', digits: 2 },
    ]);
    expect(Array.from(series[0]!.values)).toEqual([61.5, null, 60.2]);
    expect(Array.from(series[1]!.values)).toEqual([12.34, 12.3, 12.31]);
  });

  it('draws them after the ride’s other panels, and not at all for a ride without them', async () => {
    const english = await translatorFor('en-US');
    const t = (id: MessageId) => english.t(id);
    const outdoor = {
      time: [0, 1],
      speed: [10, 11],
      heart_rate: [140, 141],
      power: [200, 210],
      thb: [null, null],
    };
    expect(rideSeries(outdoor, t, kmh).map((series) => series.id)).toEqual([
      'speed',
      'heart_rate',
      'power',
    ]);
    const both = rideSeries({ ...outdoor, smo2: [55, 54], thb: [11, 11.5] }, t, kmh);
    expect(both.map((series) => series.id)).toEqual([
      'speed',
      'heart_rate',
      'power',
      'smo2',
      'thb',
    ]);
    expect(both.at(-2)!.label).toBe('Muscle oxygen (SmO2)');
    expect(Array.from(both[0]!.values)).toEqual([36, 39.6]);
  });
});
