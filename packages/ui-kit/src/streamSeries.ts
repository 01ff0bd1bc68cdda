import type { ReactNode } from 'react';

// What StreamCharts draws: its streams, markers and bands, and what a panel shares with it.

/** One stream of a workout: its values per sample (NaN or null where it has none). */
export interface StreamSeries {
  readonly id: string;
  readonly label: ReactNode;
  readonly unit: string;
  readonly values: ArrayLike<number | null>;
  readonly kind?: 'line' | 'area';
  /** A CSS colour, one of `chartColors` as a rule; the design tokens' brand red by default. */
  readonly color?: string;
  readonly digits?: number;
  /**
   * Points called out on the panel (a W' balance's lowest point): a dot at the sample and
   * its text beside it.
   */
  readonly markers?: readonly StreamMarker[];
  /**
   * A second ride's values on the same x (compare two rides), drawn dashed over this one in
   * the comparison colour; its value is read out after the first one's.
   */
  readonly overlay?: ArrayLike<number | null>;
}

/** A sample called out on a panel. */
export interface StreamMarker {
  readonly index: number;
  readonly label: string;
}

/**
 * A span of x (seconds or metres, `from` to `to`) shaded on one panel: a climb on the
 * elevation chart. `active` shades it stronger (the climb the rider picked).
 */
export interface StreamBand {
  readonly series: string;
  readonly from: number;
  readonly to: number;
  readonly active?: boolean;
}

/** A range of sample indices, both ends included. */
export type IndexRange = readonly [number, number];

/** A panel's margins around its plot, in pixels. */
export const MARGIN = { top: 8, right: 16, bottom: 30, left: 48 };
