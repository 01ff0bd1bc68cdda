import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { meanMaxCurve, simulateRide } from '@xoss/workout-stats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurveChart } from './CurveChart.tsx';
import { formatShortDuration } from './format.ts';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

const hour = simulateRide({ seconds: 3600, seed: 3 });

/** Drags across the first panel's hit area from one fraction of its width to another. */

describe('CurveChart', () => {
  it('draws the power curve and a dashed comparison on a log axis and reads both on hover', async () => {
    const curve = meanMaxCurve(hour.power!);
    const older = curve.map((value) => value * 0.9);
    const durations = Array.from(curve, (_, index) => index + 1);
    const { container } = await renderIn(
      <div style={{ width: 700 }}>
        <CurveChart
          title="Power curve"
          unit="W"
          series={[
            { id: 'ride', label: 'This ride', durations, values: curve },
            {
              id: 'year',
              label: 'This year',
              durations,
              values: older,
              dashed: true,
              color: '#1660d0',
            },
          ]}
        />
      </div>,
    );
    expect(screen.getByRole('img', { name: /Power curve/ })).toBeTruthy();
    const ticks = [...container.querySelectorAll('.xoss-axis--bottom .xoss-axis__tick')].map(
      (tick) => tick.textContent,
    );
    expect(ticks).toEqual(['1s', '5s', '15s', '30s', '1m', '5m', '10m', '20m', '1h']);
    const hit = container.querySelector('svg[role="img"] rect[fill="transparent"]')!;
    const box = hit.getBoundingClientRect();
    // ln(60)/ln(3600) of the way along: one minute.
    fireEvent.pointerMove(hit, {
      clientX: box.left + (box.width * Math.log(60)) / Math.log(3600),
      clientY: box.top + 5,
    });
    const legend = within(container.querySelector('.xoss-curve__legend')!);
    expect(legend.getByText(/This ride/).textContent).toMatch(/@ 1m/);
    expect(container.querySelectorAll('path[stroke-dasharray]')).toHaveLength(1);
    await expectAccessible(container);
  });

  it('with log-spaced durations, shows no value between them until the exact one is given', async () => {
    const curve = meanMaxCurve(hour.power!);
    // Every second to 20 s, then every 100 s: 60 s is not among them, 20 s is.
    const durations = [
      ...Array.from({ length: 20 }, (_, index) => index + 1),
      ...Array.from({ length: 36 }, (_, index) => 100 * (index + 1)),
    ];
    const values = durations.map((duration) => curve[duration - 1]!);
    const onHover = vi.fn();
    const chart = (exact?: { duration: number; values: Record<string, number | null> }) => (
      <div style={{ width: 700 }}>
        <CurveChart
          title="Power curve"
          unit="W"
          series={[{ id: 'ride', label: 'This ride', durations, values }]}
          onHover={onHover}
          {...(exact ? { exact } : {})}
        />
      </div>
    );
    const { container, rerender } = await renderIn(chart());
    const hit = container.querySelector('svg[role="img"] rect[fill="transparent"]')!;
    const box = hit.getBoundingClientRect();
    const pointAt = (seconds: number) =>
      fireEvent.pointerMove(hit, {
        clientX: box.left + (box.width * Math.log(seconds)) / Math.log(3600),
        clientY: box.top + 5,
      });
    const legend = () => within(container.querySelector('.xoss-curve__legend')!);
    pointAt(60);
    expect(onHover).toHaveBeenLastCalledWith(60);
    // Not the value of a neighbouring duration: none until the exact one comes.
    expect(legend().getByText(/This ride/).textContent).not.toMatch(/@/);
    rerender(chart({ duration: 60, values: { ride: curve[59]! } }));
    expect(legend().getByText(/This ride/).textContent).toContain(
      `${Math.round(curve[59]!)} W @ 1m`,
    );
    // A duration the series holds shows at once.
    pointAt(10);
    expect(onHover).toHaveBeenLastCalledWith(10);
    expect(legend().getByText(/This ride/).textContent).toContain(
      `${Math.round(curve[9]!)} W @ 10s`,
    );
    fireEvent.pointerLeave(hit);
    expect(onHover).toHaveBeenLastCalledWith(null);
  });

  it('formats durations for the axis', () => {
    expect([1, 59, 60, 90, 3600, 5400].map(formatShortDuration)).toEqual([
      '1s',
      '59s',
      '1m',
      '1m30s',
      '1h',
      '1h30m',
    ]);
  });
});
