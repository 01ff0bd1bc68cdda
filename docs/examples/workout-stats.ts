// @xoss/workout-stats: the summary and power curve of a ride's streams.
import { meanMaxCurve, powerCurveEnvelope, simulateRide } from '@xoss/workout-stats';
import { summarizeWorkout } from '@xoss/workout-stats';

const streams = simulateRide({ seconds: 3600, seed: 1 }); // or streams of a decoded file
const summary = summarizeWorkout(streams, { ftpWatts: 250, maxHeartRate: 185, distanceUnit: 0 });
const curve = powerCurveEnvelope(meanMaxCurve(streams.power!)); // curve[d - 1]: best of d s
console.log(
  `NP ${Math.round(summary.normalizedPower ?? 0)} W, TSS ${summary.trainingStressScore?.toFixed(0)}`,
);
console.log(`best 5 min: ${Math.round(curve[299] ?? 0)} W`);
