import type { Meta, StoryObj } from '@storybook/react-vite';
import { DeviceIllustration, ProductCard } from './Product.tsx';
import { DownloadTable, SpecTable } from './ProductTables.tsx';

const meta = {
  title: 'Product/Product card',
  component: ProductCard,
  subcomponents: { DeviceIllustration, SpecTable, DownloadTable },
  args: {
    name: 'XOSS NAV+',
    tagline: 'Maps, routes and 33+ hours on one charge.',
    href: '/product/xossnav',
    buyHref: 'https://shop.xoss.co/nav-plus',
    illustration: <DeviceIllustration shape="NAV" title="XOSS NAV+" />,
  },
} satisfies Meta<typeof ProductCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Light: Story = {};
export const Night: Story = { args: { theme: 'night' } };
export const Illustrations: StoryObj<typeof DeviceIllustration> = {
  render: () => (
    <div>
      <DeviceIllustration shape="NAV" title="XOSS NAV" />
      <DeviceIllustration shape="SPRINT" title="XOSS SPRINT" />
      <DeviceIllustration shape="G" title="XOSS G" />
      <DeviceIllustration shape="G2" title="XOSS G 2nd generation" />
    </div>
  ),
};
export const Specifications: StoryObj<typeof SpecTable> = {
  render: () => (
    <SpecTable
      caption="NAV+ specifications"
      rows={[
        { label: 'Battery life', value: '33+ hours' },
        { label: 'Battery', value: '600 mAh' },
        { label: 'Screen', value: '2.4 inch' },
        { label: 'Waterproof', value: 'IPX7' },
        { label: 'Operating temperature', value: '-10 to 50 °C' },
        { label: 'Map storage', value: 'about 3.6 GB' },
      ]}
    />
  ),
};
export const Downloads: StoryObj<typeof DownloadTable> = {
  render: () => (
    <DownloadTable
      caption="NAV+ manuals"
      rows={[
        {
          name: 'NAV+ manual',
          language: 'English',
          size: '2.1 MB',
          href: '/files/manuals/nav-plus-en.pdf',
        },
        {
          name: 'NAV+ マニュアル',
          language: '日本語',
          size: '2.3 MB',
          href: '/files/manuals/nav-plus-ja.pdf',
        },
      ]}
    />
  ),
};
