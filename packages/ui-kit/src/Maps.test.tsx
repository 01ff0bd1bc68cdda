import { cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import {
  DEFAULT_TILE_URL,
  RegionPicker,
  RouteMap,
  tileUrlFrom,
  type LonLat,
  type MapRegion,
} from './Maps.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

const track: LonLat[] = Array.from({ length: 200 }, (_, index) => [
  8.54 + index * 0.001,
  47.37 + Math.sin(index / 20) * 0.01,
]);

describe('tileUrlFrom', () => {
  it("reads an app's tile setting: unset is OpenStreetMap, none no base map", () => {
    expect(tileUrlFrom(undefined)).toBe(DEFAULT_TILE_URL);
    expect(tileUrlFrom('')).toBe(DEFAULT_TILE_URL);
    expect(tileUrlFrom('none')).toBeNull();
    expect(tileUrlFrom('https://tiles.example/{z}/{x}/{y}.png')).toBe(
      'https://tiles.example/{z}/{x}/{y}.png',
    );
  });
});

describe('RouteMap', () => {
  it('draws the track without a tile service and moves the marker', async () => {
    const { container, rerender } = await renderIn(
      <RouteMap track={track} tileUrl={null} marker={10} />,
    );
    const map = screen.getByRole('region', { name: 'Route map' });
    await vi.waitFor(() => expect(map.querySelector('canvas')).not.toBeNull());
    expect(map.getAttribute('data-marker')).toBe('10');
    rerender(<RouteMap track={track} tileUrl={null} marker={150} />);
    expect(map.getAttribute('data-marker')).toBe('150');
    expect(screen.queryByRole('alert')).toBeNull();
    await expectAccessible(container);
  });

  it('paints the track in the brand colour and the marker as a white dot on its own canvas', async () => {
    const { rerender } = await renderIn(<RouteMap track={track} tileUrl={null} marker={null} />);
    const map = screen.getByRole('region', { name: 'Route map' });
    const count = (canvas: HTMLCanvasElement) => {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let red = 0;
      let white = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! < 200) continue;
        if (data[i]! > 200 && data[i + 1]! < 40 && data[i + 2]! < 60) red++;
        if (data[i]! > 240 && data[i + 1]! > 240 && data[i + 2]! > 240) white++;
      }
      return { red, white };
    };
    const canvas = await vi.waitFor(() => {
      const found = map.querySelector<HTMLCanvasElement>('canvas.xoss-map__track');
      expect(found).not.toBeNull();
      expect(count(found!).red).toBeGreaterThan(200);
      return found!;
    });
    expect(count(canvas).white).toBe(0);
    rerender(<RouteMap track={track} tileUrl={null} marker={100} />);
    await vi.waitFor(() => expect(count(canvas).white).toBeGreaterThan(20));
  });

  it('says clearly when the map tiles fail to load', async () => {
    await renderIn(<RouteMap track={track} tileUrl="http://127.0.0.1:9/{z}/{x}/{y}.png" />, 'es');
    expect((await screen.findByRole('alert', {})).textContent).toBe(
      'No se pudo cargar el mapa. Recarga la página o revisa la red',
    );
  });
});

describe("the map is the page's guest", () => {
  const viewportOf = async () => {
    const map = screen.getByRole('region', { name: 'Route map' });
    return vi.waitFor(() => {
      const viewport = map.querySelector<HTMLElement>('.ol-viewport');
      expect(viewport).not.toBeNull();
      return viewport!;
    });
  };
  const wheel = (target: HTMLElement, init: WheelEventInit) => {
    const box = target.getBoundingClientRect();
    // dispatchEvent says false when a listener took the event (preventDefault): the map zoomed
    // and the page did not scroll.
    return target.dispatchEvent(
      new WheelEvent('wheel', {
        deltaY: 120,
        clientX: box.left + box.width / 2,
        clientY: box.top + box.height / 2,
        bubbles: true,
        cancelable: true,
        ...init,
      }),
    );
  };

  it('leaves the wheel to the page and says how to zoom; Ctrl + wheel zooms the map', async () => {
    await renderIn(<RouteMap track={track} tileUrl={null} />);
    const viewport = await viewportOf();
    const hint = document.querySelector('.xoss-map__hint')!;
    expect(hint.getAttribute('data-shown')).toBe('false');
    expect(wheel(viewport, {})).toBe(true);
    await vi.waitFor(() => expect(hint.getAttribute('data-shown')).toBe('true'));
    expect(hint.textContent).toMatch(/^Use (Ctrl|⌘) \+ scroll to zoom the map$/);
    // The hint goes by itself once the rider stops.
    await vi.waitFor(() => expect(hint.getAttribute('data-shown')).toBe('false'));
    const mac = /Mac/.test(navigator.platform);
    expect(wheel(viewport, mac ? { metaKey: true } : { ctrlKey: true })).toBe(false);
    expect(hint.getAttribute('data-shown')).toBe('false');
  });

  it("says in the reader's language to use two fingers when one finger moves over it", async () => {
    await renderIn(<RouteMap track={track} tileUrl={null} />, 'de');
    const map = screen.getByRole('region', { name: 'Routenkarte' });
    await vi.waitFor(() => expect(map.querySelector('.ol-viewport')).not.toBeNull());
    const finger = (identifier: number) =>
      new Touch({ identifier, target: map, clientX: 100 + identifier * 40, clientY: 100 });
    map.dispatchEvent(new TouchEvent('touchmove', { touches: [finger(1)], bubbles: true }));
    const hint = map.querySelector('.xoss-map__hint')!;
    await vi.waitFor(() => expect(hint.textContent).toBe('Verschiebe die Karte mit zwei Fingern'));
    // Two fingers move the map: no hint.
    map.dispatchEvent(
      new TouchEvent('touchmove', { touches: [finger(1), finger(2)], bubbles: true }),
    );
    await vi.waitFor(() => expect(hint.getAttribute('data-shown')).toBe('false'));
  });
});

describe('RegionPicker', () => {
  const regions: MapRegion[] = [
    { id: 'ch', name: 'Switzerland', bbox: [5.9, 45.8, 10.5, 47.8], bytes: 420e6 },
    { id: 'de', name: 'Germany', bbox: [5.8, 47.2, 15.1, 55.1], bytes: 2.9e9 },
    { id: 'at', name: 'Austria', bbox: [9.5, 46.3, 17.2, 49.1], bytes: 610e6 },
  ];
  function Harness() {
    const [value, setValue] = useState<string[]>([]);
    return <RegionPicker regions={regions} value={value} onChange={setValue} tileUrl={null} />;
  }

  it('selects regions from the keyboard list, totals their size and warns past 3.6 GB', async () => {
    const { container } = await renderIn(<Harness />);
    // Nothing picked: no size at all (it once said "No region selected, 0 byte").
    expect(screen.getByText('No region selected')).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Switzerland' }));
    expect(screen.getByText(/1 region selected, 420 MB/)).toBeTruthy();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Germany' }));
    expect(screen.getByText(/2 regions selected, 3.32 GB/)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Austria' }));
    expect(screen.getByRole('alert').textContent).toContain('3.6 GB');
    await expectAccessible(container);
  });
});
