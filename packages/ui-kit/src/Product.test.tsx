import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceIllustration, ProductCard } from './Product.tsx';
import { DownloadTable, SpecTable } from './ProductTables.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

describe('product components', () => {
  it('shows a product card with a named Buy Now link', async () => {
    const { container } = await renderIn(
      <ProductCard
        name="XOSS G+"
        tagline="Small, light, 25 hours."
        href="/product/xossG"
        buyHref="https://shop.xoss.co/g-plus"
        illustration={<DeviceIllustration shape="G" title="XOSS G+" />}
        theme="night"
      />,
      'it',
    );
    expect(screen.getByRole('heading', { name: 'XOSS G+' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'XOSS G+' })).toBeTruthy();
    const buy = screen.getByRole('link', { name: 'Acquista ora: XOSS G+' });
    expect(buy.getAttribute('href')).toBe('https://shop.xoss.co/g-plus');
    expect(buy.getAttribute('rel')).toContain('noopener');
    await expectAccessible(container);
  });

  it('draws every device shape', async () => {
    await renderIn(
      <>
        {(['NAV', 'SPRINT', 'G', 'G2', 'HEART_RATE', 'SENSOR', 'LIGHTS'] as const).map((shape) => (
          <DeviceIllustration key={shape} shape={shape} title={`XOSS ${shape}`} />
        ))}
      </>,
    );
    const drawings = screen.getAllByRole('img');
    expect(drawings.map((drawing) => drawing.getAttribute('aria-label'))).toEqual([
      'XOSS NAV',
      'XOSS SPRINT',
      'XOSS G',
      'XOSS G2',
      'XOSS HEART_RATE',
      'XOSS SENSOR',
      'XOSS LIGHTS',
    ]);
    // Each shape draws something of its own (an accessory is not an empty box).
    const shapesDrawn = new Set(drawings.map((drawing) => drawing.innerHTML));
    expect(shapesDrawn.size).toBe(7);
  });

  it('renders specification and download tables with headers', async () => {
    const { container } = await renderIn(
      <>
        <SpecTable
          caption="NAV specifications"
          rows={[
            { label: 'Battery', value: '600 mAh' },
            { label: 'Waterproof', value: 'IPX7' },
          ]}
        />
        <DownloadTable
          caption="Manuals"
          rows={[
            { name: 'NAV manual', language: 'English', size: '2.1 MB', href: '/m/nav-en.pdf' },
          ]}
        />
      </>,
    );
    const spec = screen.getByRole('table', { name: 'NAV specifications' });
    expect(within(spec).getByRole('rowheader', { name: 'Battery' })).toBeTruthy();
    const downloads = screen.getByRole('table', { name: 'Manuals' });
    expect(
      within(downloads)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['File', 'Language', 'Size', 'Download']);
    expect(
      within(downloads).getByRole('link', { name: 'Download NAV manual' }).getAttribute('href'),
    ).toBe('/m/nav-en.pdf');
    await expectAccessible(container);
  });
});
