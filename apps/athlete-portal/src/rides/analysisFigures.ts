// What the ride page draws from a ride's analysis above its panels: the W' balance chart, the
// analysis figures beside the summary, and the chart indices of a span of seconds. Apart
// from the panels (RideAnalysis.tsx), which load when the page is scrolled to them.
import type { StreamsReply, WorkoutAnalysis } from '@xoss/api-contract';
import type { MessageId } from '@xoss/i18n';
import { useLocale, type useT } from '@xoss/i18n/react';
import { chartColors, indexAtX, type IndexRange, type StreamSeries } from '@xoss/ui-kit';

type Streams = StreamsReply['streams'];

/**
 * The chart indices a span of seconds (`end` exclusive, as the analysis sends them) covers in
 * the drawn streams: the first sample at or after `start`, the last before `end`. The
 * streams are thinned for drawing, so the indices are the nearest drawn samples; the range
 * statistics still use the exact seconds.
 */
export function indicesOf(time: readonly number[], start: number, end: number): IndexRange {
  const last = Math.max(0, time.length - 1);
  let from = indexAtX(time, start);
  if ((time[from] ?? 0) < start && from < last) from += 1;
  let to = indexAtX(time, Math.max(start, end - 0.001));
  if (to <= from) to = Math.min(last, from + 1);
  if (to <= from) from = Math.max(0, to - 1);
  return [from, to];
}

/** Where the W' balance's CP and W' come from, as its title says it. */
const wBalSource = (analysis: WorkoutAnalysis) =>
  analysis.model_source === 'estimate' && analysis.threshold_source === 'history'
    ? 'history'
    : (analysis.model_source ?? 'estimate');

/**
 * The W' balance panel (kJ), drawn after power: the CP and W' it is computed with and where
 * they come from in its title, its lowest point called out. None without power.
 */
export function wBalSeries(
  streams: Streams,
  analysis: WorkoutAnalysis | undefined,
  t: ReturnType<typeof useT>,
  locale: string,
): StreamSeries | null {
  const joules = streams.w_bal ?? [];
  if (!joules.some((value) => value !== null)) return null;
  const kilo = new Intl.NumberFormat(locale, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
  let lowest = -1;
  for (let i = 0; i < joules.length; i++) {
    const value = joules[i];
    if (value !== null && value !== undefined && (lowest < 0 || value < joules[lowest]!))
      lowest = i;
  }
  const model =
    analysis && analysis.cp_w !== null && analysis.w_prime_j !== null
      ? ` · ${t('workouts.analysis.wBalModel', {
          cp: Math.round(analysis.cp_w),
          wPrime: kilo.format(analysis.w_prime_j / 1000),
          source: wBalSource(analysis),
        })}`
      : '';
  return {
    id: 'w_bal',
    label: `${t('workouts.analysis.wBal')}${model}`,
    unit: 'kJ',
    digits: 1,
    color: chartColors.form,
    values: joules.map((value) => (value === null ? null : value / 1000)),
    markers:
      lowest >= 0
        ? [
            {
              index: lowest,
              label: t('workouts.analysis.wBalLowest', {
                value: kilo.format(joules[lowest]! / 1000),
              }),
            },
          ]
        : [],
  };
}

/** The whole ride's analysis figures beside its summary: matches, decoupling and EF. */
export function useAnalysisFigures(analysis: WorkoutAnalysis | undefined): [MessageId, string][] {
  const locale = useLocale();
  if (!analysis) return [];
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const figures: [MessageId, string][] = [];
  if (analysis.model_source !== null)
    figures.push(['workouts.analysis.matches', String(analysis.matches.length)]);
  if (analysis.decoupling_pct !== null)
    figures.push([
      'workouts.analysis.decoupling',
      `${number(1).format(analysis.decoupling_pct)}\u00a0%`,
    ]);
  if (analysis.efficiency_factor !== null)
    figures.push(['workouts.analysis.ef', number(2).format(analysis.efficiency_factor)]);
  return figures;
}
