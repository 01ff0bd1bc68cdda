// What the ride's figures say of where they come from: the device's own mark, and how a TSS
// was scored.
import type { WorkoutDetail } from '@xoss/api-contract';
import { Message } from '@xoss/i18n/react';

/** A small mark after a figure the device itself computed (calories, climbing, NP/IF/TSS). */
export function DeviceMark({ show }: { show: boolean }) {
  return show ? (
    <small className="portal__source">
      {' '}
      <Message id="workouts.fromDevice" />
    </small>
  ) : null;
}

/**
 * A ride's TSS as its figures show it: scored by heart rate (no power) or by pace (a run), it
 * says so beside the figure ("85.0 (from heart rate)"); by power, the figure alone.
 */
export function tssText(
  summary: Pick<WorkoutDetail['summary'], 'tss' | 'tss_method'>,
  figure: string,
  t: (id: 'workouts.tssMethod', values: { method: string }) => string,
): string {
  const method = summary.tss_method;
  return summary.tss !== null && (method === 'heart_rate' || method === 'pace')
    ? `${figure} (${t('workouts.tssMethod', { method })})`
    : figure;
}
