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
/** A ride's climbs picked out along the track, the chosen one wider. */
export const WithClimbs: Story = {
  args: {
    segments: [
      { from: 20, to: 60 },
      { from: 150, to: 210, active: true },
    ],
  },
};
export const TilesFail: Story = { args: { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png' } };

// Regions far apart, as NAV+ offers them: fitted to one view, each is small, and each must
// still carry its name (a label wider than its area is kept, not dropped).
const regions: MapRegion[] = [
  { id: 'cn-s', name: 'China South', bbox: [108, 18, 118, 26], bytes: 820e6 },
  { id: 'cn-e', name: 'China East', bbox: [116, 24, 123, 35], bytes: 1.1e9 },
  { id: 'jp', name: 'Japan', bbox: [129, 30, 146, 46], bytes: 1.4e9 },
  { id: 'eu', name: 'Central Europe', bbox: [5, 45, 17, 55], bytes: 2.9e9 },
];
function RegionsStory() {
  const [value, setValue] = useState<string[]>(['jp']);
  return <RegionPicker regions={regions} value={value} onChange={setValue} tileUrl={null} />;
}
export const Regions: StoryObj<typeof RegionPicker> = { render: () => <RegionsStory /> };
