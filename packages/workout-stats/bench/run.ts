/// <reference types="node" />
// `pnpm bench`: one table for a 10-hour 1 Hz ride (36,000 samples): our code beside a plain
// reference for each figure, best of several runs, and the ratio. Figures, never assertions.
// `BENCH=analysis node bench/run.ts` runs only the analysis cases (a second or two; the
// plain references of the full table take much longer).
import { findClimbs } from '../src/climbs.ts';
import { findIntervals } from '../src/intervals.ts';
import { meanMaxCurve, meanMaxCurveReference } from '../src/meanMax.ts';
import { normalizedPower } from '../src/normalizedPower.ts';
import { fitPowerModel } from '../src/powerModel.ts';
import { simulateRide } from '../src/simulate.ts';
import { summarizeWorkout } from '../src/summary.ts';
import { matchesBurnt, wPrimeBalance } from '../src/wbal.ts';
import { powerZoneTimes, powerZones } from '../src/zones.ts';

const SECONDS = 36_000;
const ride = simulateRide({
  seconds: SECONDS,
  seed: 2026,
  stops: [
    [7200, 420],
    [21600, 900],
  ],
});
const realistic = ride.power!;
const constant = new Float64Array(SECONDS).fill(250);
// Adversarial for the pruning: every edge strip holds a zero, so bounds are loose.
const alternating = Float64Array.from({ length: SECONDS }, (_, i) => (i % 2 === 0 ? 0 : 1000));

function best(runs: number, work: () => unknown): number {
  let fastest = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

// Plain references: the obvious code a reviewer can check by eye.
function plainNormalizedPower(watts: Float64Array): number {
  const fourth: number[] = [];
  for (let i = 29; i < watts.length; i++) {
    let sum = 0;
    for (let k = i - 29; k <= i; k++) sum += watts[k]!;
    fourth.push((sum / 30) ** 4);
  }
  return (fourth.reduce((a, b) => a + b, 0) / fourth.length) ** 0.25;
}
function plainZones(watts: Float64Array, ftp: number): number[] {
  return powerZones.map(
    (zone) =>
      Array.from(watts).filter(
        (w) => (w / ftp) * 100 >= zone.lowPercent && (w / ftp) * 100 < zone.highPercent,
      ).length,
  );
}
function plainSummary(): unknown {
  const moving = Array.from(ride.speed!).map((v) => v >= 0.5);
  const pick = (values: Float64Array) => Array.from(values).filter((_, i) => moving[i]);
  const power = pick(ride.power!);
  return {
    avgPower: power.reduce((a, b) => a + b, 0) / power.length,
    np: plainNormalizedPower(Float64Array.from(power)),
    avgHr: pick(ride.heartRate!).reduce((a, b) => a + b, 0) / power.length,
    maxSpeed: Math.max(...Array.from(ride.speed!)),
  };
}

const rows: [string, number, number | undefined][] = [];
const analysisOnly = process.env.BENCH === 'analysis';
if (!analysisOnly) {
  const check = (a: Float64Array, b: Float64Array) =>
    a.every((value, i) => Math.abs(value - b[i]!) < 1e-9);
  if (!check(meanMaxCurve(realistic), meanMaxCurveReference(realistic)))
    throw new Error('curve differs from the reference');
  rows.push([
    'exact full curve, realistic ride',
    best(5, () => meanMaxCurve(realistic)),
    best(2, () => meanMaxCurveReference(realistic)),
  ]);
  rows.push([
    'exact full curve, alternating 0/1000 W (adversarial)',
    best(2, () => meanMaxCurve(alternating)),
    best(2, () => meanMaxCurveReference(alternating)),
  ]);
  rows.push([
    'exact full curve, constant power',
    best(5, () => meanMaxCurve(constant)),
    best(2, () => meanMaxCurveReference(constant)),
  ]);
  rows.push([
    'normalized power',
    best(20, () => normalizedPower(realistic)),
    best(5, () => plainNormalizedPower(realistic)),
  ]);
  rows.push([
    'summary (all of spec 3)',
    best(10, () => summarizeWorkout(ride, { ftpWatts: 250, maxHeartRate: 185 })),
    best(5, plainSummary),
  ]);
  rows.push([
    'power zones',
    best(20, () => powerZoneTimes(realistic, 250)),
    best(5, () => plainZones(realistic, 250)),
  ]);
}

// Analysis figures: each against its target (ms), no plain reference.
const targets: [string, number, number][] = [];
{
  const wbal = wPrimeBalance(realistic, 260, 20000);
  const curve = meanMaxCurve(realistic);
  const { distance, altitude, time, heartRate, cadence } = ride;
  targets.push([
    'power model fit (3-parameter, envelope)',
    best(20, () => fitPowerModel(curve)),
    5,
  ]);
  targets.push(["W' balance", best(20, () => wPrimeBalance(realistic, 260, 20000)), 20]);
  targets.push([
    "matches burnt (from W' balance)",
    best(20, () => matchesBurnt(realistic, wbal, 260)),
    20,
  ]);
  targets.push([
    "intervals (with HR, cadence, W' balance)",
    best(20, () => findIntervals(realistic, 250, { heartRate, cadence, wbal })),
    20,
  ]);
  targets.push([
    'climbs (with power)',
    best(20, () => findClimbs(distance!, altitude!, time, realistic)),
    20,
  ]);
}

if (!analysisOnly) {
  console.log(
    `\n@xoss/workout-stats: 10-hour ride, ${SECONDS.toLocaleString('en-US')} samples at 1 Hz (best of runs, ms)\n`,
  );
  console.log('| figure | ours ms | plain reference ms | ratio |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, ours, reference] of rows) {
    console.log(
      `| ${name} | ${ours.toFixed(1)} | ${reference === undefined ? '-' : reference.toFixed(1)} | ${reference === undefined ? '-' : `${(reference / ours).toFixed(1)}x`} |`,
    );
  }
  console.log(
    '\nTarget: exact full curve at least 10x faster than the plain reference on the realistic ride.',
  );
}

console.log('\n| analysis figure | ours ms | target ms |');
console.log('| --- | ---: | ---: |');
for (const [name, ours, target] of targets)
  console.log(`| ${name} | ${ours.toFixed(2)} | < ${target} |`);
