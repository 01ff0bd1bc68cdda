/**
 * The colours of a ride's streams and of the training lines: the design tokens of
 * styles.css (`--xoss-chart-*`), so charts and the rest of the page share one palette.
 */
export const chartColors = {
  speed: 'var(--xoss-chart-speed)',
  elevation: 'var(--xoss-chart-elevation)',
  heartRate: 'var(--xoss-chart-heart-rate)',
  cadence: 'var(--xoss-chart-cadence)',
  power: 'var(--xoss-chart-power)',
  fitness: 'var(--xoss-chart-fitness)',
  fatigue: 'var(--xoss-chart-fatigue)',
  form: 'var(--xoss-chart-form)',
  comparison: 'var(--xoss-chart-comparison)',
} as const;
