import { cleanup, screen } from '@testing-library/react';
import { defaultDocument, deviceProfiles, fieldById } from '@xoss/data-fields';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { DeviceScreenPreview } from './DeviceScreenPreview.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('DeviceScreenPreview', () => {
  const document = defaultDocument(deviceProfiles.NAV, 'NAV-0001', 1_790_000_000);

  it("draws a page at the device's proportions with values in the rider's units", async () => {
    const page = document.pages[0]!;
    const { container } = await renderIn(
      <DeviceScreenPreview
        profile={deviceProfiles.NAV}
        page={page}
        settings={{ distanceUnit: 1, temperatureUnit: 'c' }}
        values={{ Speed: 10, Distance: 16_093.44 }}
        width={240}
      />,
    );
    const svg = screen.getByRole('img', { name: `${deviceProfiles.NAV.name} screen, page 1` });
    expect(svg.getAttribute('height')).toBe('320');
    const names = page.items.map((id) => fieldById(id)?.defaultText.name);
    for (const name of names) expect(svg.textContent).toContain(name);
    if (page.items.includes(fieldById(1)?.id ?? -1)) expect(svg.textContent).toContain('mph');
    expect(svg.textContent).not.toContain('km/h');
    await expectAccessible(container);
  });

  it('lets the rider pick a slot with mouse or keyboard when editing', async () => {
    const onSlotClick = vi.fn();
    const page = document.pages.find((candidate) => candidate.items.length >= 3)!;
    await renderIn(
      <DeviceScreenPreview
        profile={deviceProfiles.NAV}
        page={page}
        settings={{ distanceUnit: 0, temperatureUnit: 'c' }}
        selectedSlot={0}
        onSlotClick={onSlotClick}
      />,
    );
    const slots = screen.getAllByRole('button');
    expect(slots).toHaveLength(page.items.length);
    expect(slots[0]!.getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(slots[1]!);
    slots[2]!.focus();
    await userEvent.keyboard('{Enter}');
    expect(onSlotClick.mock.calls).toEqual([[1], [2]]);
  });

  it('keeps every value inside its tile on a page of six small fields (NAV+)', async () => {
    // Six small tiles: "1:23:45" of moving time, the widest value of the page, among them.
    const items = [100, 101, 200, 300, 500, 700];
    const page = { index: 0, pid: 11, items, extra: {} };
    const { container } = await renderIn(
      <DeviceScreenPreview
        profile={deviceProfiles['NAV+']}
        page={page}
        settings={{ distanceUnit: 0, temperatureUnit: 'c' }}
        values={{
          MovingTime: 5025,
          TotalTime: 35_999,
          Distance: 138_420,
          Speed: 12.4,
          Heartrate: 148,
          Power: 1231,
        }}
      />,
    );
    const svg = container.querySelector('svg')!;
    expect(svg.textContent).toContain('1:23:45');
    const tiles = [...svg.querySelectorAll('g')];
    expect(tiles).toHaveLength(6);
    for (const tile of tiles) {
      const [rect, , value] = tile.children as unknown as [
        SVGRectElement,
        SVGTextElement,
        SVGTextElement,
      ];
      const box = rect.getBBox();
      const text = value.getBBox();
      expect(text.x, value.textContent).toBeGreaterThanOrEqual(box.x);
      expect(text.x + text.width, value.textContent).toBeLessThanOrEqual(box.x + box.width);
      expect(text.y, value.textContent).toBeGreaterThanOrEqual(box.y);
    }
  });
});
