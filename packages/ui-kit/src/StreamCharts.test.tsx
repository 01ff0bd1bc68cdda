import { cleanup, fireEvent, screen } from '@testing-library/react';
import { simulateRide } from '@xoss/workout-stats';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { formatClock } from './format.ts';
import { StreamCharts, indexAtX, type StreamSeries } from './StreamCharts.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

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
  it('draws a panel three screens down once the browser is idle, without any scrolling', async () => {
    const { container } = await renderIn(
      <div style={{ width: 800 }}>
        <div data-testid="spacer" style={{ height: window.innerHeight * 3 }} />
        <StreamCharts x={hour.time} xKind="time" series={series(hour)} />
      </div>,
    );
    const panels = () => [...container.querySelectorAll('.xoss-streams__panel')];
    // The panels hold their place, and each is drawn although nothing scrolled to it: a page
    // printed or captured whole, or a panel pushed down by what is above it, is never left
    // with an empty frame.
    expect(panels()).toHaveLength(2);
    // Each says whether it has drawn (`data-drawn`, what tests and captures wait for), and
    // says so only with its plot there.
    const states = () =>
      panels().map((panel) => [
        panel.getAttribute('data-drawn'),
        panel.querySelectorAll('path').length > 0,
      ]);
    expect(states().every(([drawn, paths]) => drawn === 'true' || paths === false)).toBe(true);
    await vi.waitFor(() =>
      expect(states()).toEqual([
        ['true', true],
        ['true', true],
      ]),
    );
    expect(window.scrollY).toBe(0);
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
