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
});
