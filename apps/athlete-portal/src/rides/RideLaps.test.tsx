import { cleanup, render, screen } from '@testing-library/react';
import type { WorkoutDetail } from '@xoss/api-contract';
import { loadMessages, type Language } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import { client } from '../client.ts';
import { RideLaps } from './RideLaps.tsx';

// A lap's figures are the device's and the summary's are ours: when they read differently
// the table says why, and when they agree it says nothing.

afterEach(cleanup);

type Lap = WorkoutDetail['laps'][number];

/** One lap over the whole ride: an hour, 30 km, 171 W, as the ride's summary has it. */
const lap: Lap = {
  start_s: 0,
  timer_time_s: 3600,
  elapsed_time_s: 3700,
  distance_m: 30_000,
  speed_avg_ms: 30_000 / 3600,
  speed_max_ms: 15,
  hr_avg: 140,
  hr_max: 170,
  power_avg: 171,
  power_max: 600,
  cadence_avg: 88,
  elevation_gain_m: 250,
};

const ride = (laps: Lap[]) =>
  ({
    id: 7,
    laps,
    summary: {
      timer_time_s: 3600,
      distance_m: 30_000,
      speed_avg_ms: 30_000 / 3600,
      hr_avg: 140,
      power_avg: 171,
      cadence_avg: 88,
      elevation_gain_m: 250,
    },
  }) as unknown as WorkoutDetail;

async function show(workout: WorkoutDetail, language: Language = 'en-US') {
  const messages = await loadMessages(language);
  render(
    <Provider store={client.store}>
      <XossIntlProvider language={language} messages={messages}>
        <RideLaps workout={workout} />
      </XossIntlProvider>
    </Provider>,
  );
  return messages;
}

const NOTE = /Lap figures are the device's own/;

describe('the lap table beside the summary', () => {
  it("says why a one-lap ride's 174 W differs from the summary's 171 W", async () => {
    await show(ride([{ ...lap, power_avg: 174 }]));
    expect(screen.getByRole('table', { name: /^1 lap/ }).textContent).toContain('174\u00a0W');
    expect(screen.getByText(NOTE)).toBeDefined();
  });

  it('says nothing when the lap reads as the summary does', async () => {
    await show(ride([lap]));
    expect(screen.getByRole('table', { name: /^1 lap/ }).textContent).toContain('171\u00a0W');
    expect(screen.queryByText(NOTE)).toBeNull();
  });

  it('compares several laps taken together: time-weighted averages, summed distances', async () => {
    // 20 min at 150 W and 40 min at 181.5 W average 171 W: as the summary says.
    const agree = [
      { ...lap, timer_time_s: 1200, distance_m: 10_000, power_avg: 150, elevation_gain_m: 50 },
      {
        ...lap,
        start_s: 1200,
        timer_time_s: 2400,
        distance_m: 20_000,
        power_avg: 181.5,
        elevation_gain_m: 200,
      },
    ];
    await show(ride(agree));
    expect(screen.queryByText(NOTE)).toBeNull();
    cleanup();
    // The same laps with the device counting 400 m less.
    await show(ride([agree[0]!, { ...agree[1]!, distance_m: 19_600 }]));
    expect(screen.getByText(NOTE)).toBeDefined();
  });

  it('explains in the rider’s language', async () => {
    const german = await show(ride([{ ...lap, power_avg: 174 }]), 'de');
    expect(german['workouts.lapsDevice']).toBeDefined();
    expect(screen.getByText(/Die Rundenwerte sind die des Geräts/)).toBeDefined();
    expect(screen.queryByText(NOTE)).toBeNull();
  });
});
