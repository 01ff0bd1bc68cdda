import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { RegionPicker, RouteMap, type MapRegion } from './Maps.tsx';

const track = Array.from(
  { length: 300 },
  (_, index) => [8.5 + index * 0.002, 47.37 + Math.sin(index / 30) * 0.02] as const,
);

const meta = {
  title: 'Maps/Route map',
  component: RouteMap,
  subcomponents: { RegionPicker },
  // Storybook runs offline: no tile service unless a story asks for one.
  args: { track, marker: 120, tileUrl: null },
} satisfies Meta<typeof RouteMap>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Track: Story = {};
export const TilesFail: Story = { args: { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png' } };

const regions: MapRegion[] = [
  { id: 'ch', name: 'Switzerland', bbox: [5.9, 45.8, 10.5, 47.8], bytes: 420e6 },
  { id: 'de', name: 'Germany', bbox: [5.8, 47.2, 15.1, 55.1], bytes: 2.9e9 },
  { id: 'at', name: 'Austria', bbox: [9.5, 46.3, 17.2, 49.1], bytes: 610e6 },
];
function RegionsStory() {
  const [value, setValue] = useState<string[]>(['ch']);
  return <RegionPicker regions={regions} value={value} onChange={setValue} tileUrl={null} />;
}
export const Regions: StoryObj<typeof RegionPicker> = { render: () => <RegionsStory /> };
