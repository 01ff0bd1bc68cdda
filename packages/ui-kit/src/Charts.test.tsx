import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { meanMaxCurve, simulateRide } from '@xoss/workout-stats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { CurveChart } from './CurveChart.tsx';
import { formatClock, formatShortDuration } from './format.ts';
import { StreamCharts, indexAtX, type StreamSeries } from './StreamCharts.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { ZoneBars } from './ZoneBars.tsx';

afterEach(cleanup);

const hour = simulateRide({ seconds: 3600, seed: 3 });
const series = (ride: typeof hour): StreamSeries[] => [
  { id: 'speed', label: 'Speed', unit: 'km/h', values: ride.speed!.map((v) => v * 3.6), digits: 1 },
  { id: 'power', label: 'Power', unit: 'W', values: ride.power!, kind: 'area' },
];

/** Drags across the first panel's hit area from one fraction of its width to another. */
function drag(hit: Element, from: number, to: number) {
  const box = hit.getBoundingClientRect();
  const at = (fraction: number) => ({
    clientX: box.left + box.width * fraction,
    clientY: box.top + box.height / 2,
    pointerId: 1,
  });
  fireEvent.pointerDown(hit, at(from));
  fireEvent.pointerMove(hit, at((from + to) / 2));
  fireEvent.pointerMove(hit, at(to));
  fireEvent.pointerUp(hit, at(to));
}

describe('StreamCharts', () => {
  it('draws a panel only once it comes within a screen of the viewport', async () => {
    const { container } = await renderIn(
      <div style={{ width: 800 }}>
        <div data-testid="spacer" style={{ height: window.innerHeight * 3 }} />
        <StreamCharts x={hour.time} xKind="time" series={series(hour)} />
      </div>,
    );
    const plots = () => container.querySelectorAll('.xoss-streams__panel .visx-linepath').length;
    // Laid out (the panels hold their place), not drawn: three screens down.
    await new Promise((done) => setTimeout(done, 300));
    expect(container.querySelectorAll('.xoss-streams__panel')).toHaveLength(2);
    expect(plots()).toBe(0);
    container.querySelector('.xoss-streams')!.scrollIntoView();
    await vi.waitFor(() => expect(plots()).toBeGreaterThanOrEqual(1));
  });

  it('zooms by dragging, reverts one step, resets, and reports the range', async () => {
    const onRangeChange = vi.fn();
    const { container } = await renderIn(
      <div style={{ width: 800 }}>
        <StreamCharts
          x={hour.time}
          xKind="time"
          series={series(hour)}
          onRangeChange={onRangeChange}
        />
      </div>,
    );
    const undo = screen.getByRole('button', { name: 'Undo zoom' });
    const reset = screen.getByRole('button', { name: 'Reset zoom' });
    expect(undo).toHaveProperty('disabled', true);
    const hit = container.querySelector('.xoss-streams__hit')!;
    drag(hit, 0.25, 0.75);
    const first = onRangeChange.mock.calls.at(-1)![0] as [number, number];
    expect(first[0]).toBeGreaterThan(800);
    expect(first[0]).toBeLessThan(1000);
    expect(first[1]).toBeGreaterThan(2600);
    expect(first[1]).toBeLessThan(2800);
    drag(hit, 0, 0.5);
    const second = onRangeChange.mock.calls.at(-1)![0] as [number, number];
    expect(second[0]).toBeGreaterThanOrEqual(first[0]);
    expect(second[1]).toBeLessThan(first[1]);
    await userEvent.click(undo);
    expect(onRangeChange.mock.calls.at(-1)![0]).toEqual(first);
    await userEvent.click(reset);
    expect(onRangeChange.mock.calls.at(-1)![0]).toBeNull();
    expect(undo).toHaveProperty('disabled', true);
    await expectAccessible(container);
  });

  it('reports the hovered sample so a map can follow, and moves it from the keyboard', async () => {
    const onHover = vi.fn();
    const { container } = await renderIn(
      <div style={{ width: 800 }}>
        <StreamCharts x={hour.time} xKind="time" series={series(hour)} onHover={onHover} />
      </div>,
    );
    const hit = container.querySelector('.xoss-streams__hit')!;
    const box = hit.getBoundingClientRect();
    fireEvent.pointerMove(hit, { clientX: box.left + box.width / 2, clientY: box.top + 5 });
    const index = onHover.mock.calls.at(-1)![0] as number;
    expect(Math.abs(index - 1800)).toBeLessThan(20);
    expect(container.textContent).toContain(`@ ${formatClock(hour.time[index]!)}`);
    const slider = screen.getByRole('slider', { name: 'Ride charts' });
    slider.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(onHover.mock.calls.at(-1)![0]).toBe(index + 36);
    expect(slider.getAttribute('aria-valuetext')).toBe(formatClock(hour.time[index + 36]!));
    await userEvent.keyboard('+');
    expect(screen.getByRole('button', { name: 'Undo zoom' })).toHaveProperty('disabled', false);
    await userEvent.keyboard('-');
    expect(screen.getByRole('button', { name: 'Undo zoom' })).toHaveProperty('disabled', true);
  });

  it('draws a 10-hour ride with a bounded number of points per panel', async () => {
    const long = simulateRide({ seconds: 36_000, seed: 5 });
    const { container } = await renderIn(
      <div style={{ width: 800 }}>
        <StreamCharts x={long.time} xKind="time" series={series(long)} />
      </div>,
    );
    const count = (selector: string) =>
      (container.querySelector(selector)?.getAttribute('d') ?? '').split(/[ML]/).length;
    // About two points per pixel of an 800 px chart, not 36,000; an area also draws its base.
    // (Drawn once the panel is seen in view: the next frames.)
    await vi.waitFor(() =>
      expect(count('.xoss-streams__panel path.visx-linepath')).toBeGreaterThan(400),
    );
    expect(count('.xoss-streams__panel path.visx-linepath')).toBeLessThan(2 * 800);
    expect(count('.xoss-streams__panel path.visx-area-closed')).toBeLessThan(2 * 2 * 800);
    expect(container.querySelectorAll('.xoss-streams__panel')).toHaveLength(2);
  });

  it('finds samples by x with a binary search', () => {
    const x = [0, 1, 2, 5, 9];
    expect(indexAtX(x, 4)).toBe(2);
    expect(indexAtX(x, 9)).toBe(4);
    expect(indexAtX(x, -1)).toBe(0);
  });
});

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

describe('ZoneBars', () => {
  it('lists the power zones with names, ranges in watts, time and share', async () => {
    const zones = [
      { zone: 1, low: 0, high: 55, seconds: 600 },
      { zone: 2, low: 55, high: 75, seconds: 1800 },
      { zone: 3, low: 75, high: 90, seconds: 900 },
      { zone: 4, low: 90, high: 105, seconds: 300 },
      { zone: 5, low: 105, high: 120, seconds: 0 },
      { zone: 6, low: 120, high: 150, seconds: 0 },
      { zone: 7, low: 150, high: null, seconds: 0 },
    ];
    const { container } = await renderIn(
      <ZoneBars kind="power" zones={zones} reference={200} />,
      'pt-BR',
    );
    const table = screen.getByRole('table', { name: 'Zonas de potência' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[1]!.textContent).toContain('Z2 Resistência');
    expect(rows[1]!.textContent).toContain('110–150 W');
    expect(rows[1]!.textContent).toContain('30:00');
    expect(rows[1]!.textContent).toContain('50%');
    expect(rows[6]!.textContent).toContain('> 300 W');
    await expectAccessible(container);
  });
});
