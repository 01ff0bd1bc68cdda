import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { meanMaxCurve, simulateRide } from '@xoss/workout-stats';
import { chartColors } from './chartColors.ts';
import { CurveChart } from './CurveChart.tsx';
import { RouteMap } from './Maps.tsx';
import { StreamCharts, type StreamSeries } from './StreamCharts.tsx';
import { ZoneBars } from './ZoneBars.tsx';

const ride = simulateRide({ seconds: 2 * 3600, seed: 11 });
const long = simulateRide({ seconds: 10 * 3600, seed: 12 });
const streams = (source: typeof ride): StreamSeries[] => [
  {
    id: 'speed',
    label: 'Speed',
    unit: 'km/h',
    values: source.speed!.map((v) => v * 3.6),
    digits: 1,
  },
  {
    id: 'elevation',
    label: 'Elevation',
    unit: 'm',
    values: source.altitude!,
    kind: 'area',
    color: chartColors.elevation,
  },
  {
    id: 'hr',
    label: 'Heart rate',
    unit: 'bpm',
    values: source.heartRate!,
    color: chartColors.heartRate,
  },
  {
    id: 'cadence',
    label: 'Cadence',
    unit: 'rpm',
    values: source.cadence!,
    color: chartColors.cadence,
  },
  {
    id: 'power',
    label: 'Power',
    unit: 'W',
    values: source.power!,
    kind: 'area',
    color: chartColors.power,
  },
];

const meta = {
  title: 'Charts/Stream charts',
  component: StreamCharts,
  subcomponents: { CurveChart, ZoneBars },
  args: { x: ride.time, xKind: 'time', series: streams(ride) },
} satisfies Meta<typeof StreamCharts>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TwoHours: Story = {};
export const OverDistance: Story = { args: { x: ride.distance!, xKind: 'distance' } };
export const TenHours: Story = { args: { x: long.time, series: streams(long) } };

const track = Array.from(
  ride.longitude ?? [],
  (lon, index) => [lon, ride.latitude![index]!] as const,
);
function WithMapStory() {
  const [hover, setHover] = useState<number | null>(null);
  return (
    <>
      <RouteMap track={track} marker={hover} tileUrl={null} />
      <StreamCharts
        x={ride.time}
        xKind="time"
        series={streams(ride).slice(0, 2)}
        hoverIndex={hover}
        onHover={setHover}
      />
    </>
  );
}
export const WithMap: Story = { render: () => <WithMapStory /> };

const curve = meanMaxCurve(ride.power!);
const durations = Array.from(curve, (_, index) => index + 1);
export const PowerCurve: StoryObj<typeof CurveChart> = {
  render: () => (
    <CurveChart
      title="Power curve"
      unit="W"
      series={[
        { id: 'ride', label: 'This ride', durations, values: curve },
        {
          id: 'weeks',
          label: 'Last 6 weeks',
          durations,
          values: curve.map((v) => v * 1.06),
          dashed: true,
          color: chartColors.comparison,
        },
      ]}
    />
  ),
};
export const HeartRateZones: StoryObj<typeof ZoneBars> = {
  render: () => (
    <ZoneBars
      kind="hr"
      reference={185}
      zones={[
        { zone: 1, low: 50, high: 60, seconds: 900 },
        { zone: 2, low: 60, high: 70, seconds: 2400 },
        { zone: 3, low: 70, high: 80, seconds: 2700 },
        { zone: 4, low: 80, high: 90, seconds: 1000 },
        { zone: 5, low: 90, high: null, seconds: 200 },
      ]}
    />
  ),
};
