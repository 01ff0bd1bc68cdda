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
// W' balance of the two-hour ride against CP 240 W and W' 20 kJ (Skiba's differential form),
// as the API sends it: joules after each second.
const CP = 240;
const W_PRIME = 20_000;
const wBal = (() => {
  const out: number[] = [];
  let balance = W_PRIME;
  for (const watts of ride.power!) {
    balance =
      watts > CP
        ? balance - (watts - CP)
        : balance + ((W_PRIME - balance) * (CP - watts)) / W_PRIME;
    out.push(Math.max(0, balance));
  }
  return out;
})();
const lowest = wBal.indexOf(Math.min(...wBal));
function WithAnalysisStory() {
  const [zoom, setZoom] = useState<{ range: readonly [number, number] } | null>(null);
  return (
    <>
      <button type="button" onClick={() => setZoom({ range: [1800, 2400] })}>
        Zoom to 30:00-40:00
      </button>
      <StreamCharts
        x={ride.time}
        xKind="time"
        zoom={zoom}
        bands={[
          { series: 'elevation', from: 600, to: 1500 },
          { series: 'elevation', from: 4200, to: 5000, active: true },
        ]}
        series={[
          streams(ride)[1]!,
          streams(ride)[4]!,
          {
            id: 'w_bal',
            label: "W' balance · CP 240 W · W' 20.0 kJ",
            unit: 'kJ',
            digits: 1,
            color: chartColors.form,
            values: wBal.map((joules) => joules / 1000),
            markers: [{ index: lowest, label: `${(wBal[lowest]! / 1000).toFixed(1)} kJ` }],
          },
        ]}
      />
    </>
  );
}
/** A ride's analysis: climbs shaded on the elevation chart, W' balance with its lowest point. */
export const WithAnalysis: Story = { render: () => <WithAnalysisStory /> };

const other = simulateRide({ seconds: 100 * 60, seed: 14 });
/** Two rides on one time axis (compare): the second dashed over the first. */
export const TwoRides: Story = {
  args: {
    series: [
      {
        id: 'power',
        label: 'Power',
        unit: 'W',
        color: chartColors.power,
        values: ride.power!,
        overlay: Array.from(ride.time, (_, index) => other.power![index] ?? null),
      },
      {
        id: 'hr',
        label: 'Heart rate',
        unit: 'bpm',
        color: chartColors.heartRate,
        values: ride.heartRate!,
        overlay: Array.from(ride.time, (_, index) => other.heartRate![index] ?? null),
      },
    ],
  },
};

const model = durations.map((seconds) => CP + W_PRIME / (seconds + W_PRIME / (900 - CP)));
/** The ride's curve with a fitted 3-parameter model drawn over it. */
export const PowerCurveWithModel: StoryObj<typeof CurveChart> = {
  render: () => (
    <CurveChart
      title="Power curve"
      unit="W"
      series={[
        { id: 'ride', label: 'This ride', durations, values: curve },
        {
          id: 'model',
          label: 'Model (CP 240 W)',
          durations,
          values: model,
          dashed: true,
          color: chartColors.form,
        },
      ]}
    />
  ),
};

// Fastest pace held over each duration, seconds per kilometre, shown as m:ss.
const speedCurve = meanMaxCurve(ride.speed!);
export const PaceCurve: StoryObj<typeof CurveChart> = {
  render: () => (
    <CurveChart
      title="Pace curve"
      unit="/km"
      format={(seconds) =>
        `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, '0')}`
      }
      series={[
        {
          id: 'ride',
          label: 'This ride',
          durations: Array.from(speedCurve, (_, index) => index + 1),
          values: Array.from(speedCurve, (speed) => (speed > 0 ? 1000 / speed : null)),
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
