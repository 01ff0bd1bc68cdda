import { cleanup, screen, within } from '@testing-library/react';
import { useState } from 'react';
import {
  dataFields,
  deviceProfiles,
  fieldById,
  fieldByKey,
  type ChartType,
  type FieldId,
  type FieldKey,
  type SlotSize,
} from '@xoss/data-fields';
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  ChartTypePicker,
  FieldPicker,
  FieldTile,
  LayoutTemplatePicker,
  SizePicker,
} from './DataFieldControls.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('FieldTile', () => {
  it('shows the normal icon, or the light one when selected, with the translated name', async () => {
    const speed = dataFields.find((field) => field.key === 'Speed')!;
    const { rerender, container } = await renderIn(<FieldTile field={speed} />, 'zh-CN');
    const tile = screen.getByRole('button', { name: '速度' });
    expect(tile.getAttribute('aria-pressed')).toBe('false');
    expect(tile.innerHTML).toContain(speed.icons.normal.slice(0, 60));
    rerender(<FieldTile field={speed} selected />);
    expect(screen.getByRole('button', { name: '速度' }).innerHTML).toContain(
      speed.icons.selected.slice(0, 60),
    );
    await expectAccessible(container);
  });
});

describe('FieldPicker', () => {
  function Harness({
    available,
    slotSize,
  }: {
    available?: readonly FieldKey[];
    slotSize?: SlotSize;
  }) {
    const [value, setValue] = useState<FieldId | null>(null);
    return (
      <>
        <output data-testid="chosen">{value === null ? '' : fieldById(value)?.key}</output>
        <FieldPicker value={value} onChange={setValue} available={available} slotSize={slotSize} />
      </>
    );
  }

  it('groups the 49 fields by the ten categories and selects one', async () => {
    const { container } = await renderIn(<Harness />);
    const groups = screen.getAllByRole('group');
    expect(groups.map((group) => group.querySelector('legend')!.textContent)).toEqual([
      'Speed',
      'Charts',
      'Time',
      'General',
      'Distance',
      'Elevation',
      'Heart rate',
      'Cadence',
      'Power',
      'Weather',
    ]);
    expect(screen.getAllByRole('button')).toHaveLength(49);
    await userEvent.click(within(groups[8]!).getByRole('button', { name: 'Normalized power' }));
    expect(screen.getByTestId('chosen').textContent).toBe('NP');
    // The id a layout stores, one type from the file to the picker.
    expect(fieldByKey('NP')!.id).toBe(707);
    expect(
      screen.getByRole('button', { name: 'Normalized power' }).getAttribute('aria-pressed'),
    ).toBe('true');
    await expectAccessible(container);
  });

  it('disables what the device cannot show and charts outside a Large slot', async () => {
    await renderIn(<Harness available={deviceProfiles.G.fields} slotSize="Small" />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Speed' }).disabled).toBe(false);
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Normalized power' }).disabled,
    ).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Speed chart' }).disabled).toBe(
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Normalized power' }), {
      force: true,
    });
    expect(screen.getByTestId('chosen').textContent).toBe('');
  });
});

describe('size and chart-type pickers', () => {
  it('are radio groups operated with the arrow keys', async () => {
    function Harness() {
      const [size, setSize] = useState<SlotSize | null>('Large');
      const [type, setType] = useState<ChartType | null>(null);
      return (
        <>
          <SizePicker value={size} onChange={setSize} />
          <ChartTypePicker value={type} onChange={setType} />
          <output data-testid="state">{`${size}/${type}`}</output>
        </>
      );
    }
    const { container } = await renderIn(<Harness />, 'ko');
    const sizes = screen.getByRole('group', { name: '항목 크기' });
    expect(
      within(sizes)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement!.textContent),
    ).toEqual(['크게', '보통', '작게']);
    within(sizes).getByRole('radio', { name: '크게' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    await userEvent.click(screen.getByRole('radio', { name: '영역형' }));
    expect(screen.getByTestId('state').textContent).toBe('Medium/area');
    await expectAccessible(container);
  });
});

describe('LayoutTemplatePicker', () => {
  it("offers the device's layouts as named thumbnails and picks one", async () => {
    function Harness() {
      const [pid, setPid] = useState<number | null>(0);
      return (
        <>
          <LayoutTemplatePicker layouts={deviceProfiles.G.layouts} value={pid} onChange={setPid} />
          <output data-testid="pid">{pid}</output>
        </>
      );
    }
    const { container } = await renderIn(<Harness />);
    const radios = screen.getAllByRole('radio');
    expect(radios).toHaveLength(deviceProfiles.G.layouts.length);
    const last = deviceProfiles.G.layouts.at(-1)!;
    await userEvent.click(screen.getByRole('radio', { name: new RegExp(`^Layout ${last}:`) }));
    expect(screen.getByTestId('pid').textContent).toBe(String(last));
    expect(container.querySelectorAll('svg rect').length).toBeGreaterThan(radios.length);
    await expectAccessible(container);
  });
});
