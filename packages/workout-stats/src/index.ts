export { rollingAverage } from './rollingAverage.ts';
export {
  NP_WINDOW_SECONDS,
  normalizedPower,
  intensityFactor,
  trainingStressScore,
} from './normalizedPower.ts';
