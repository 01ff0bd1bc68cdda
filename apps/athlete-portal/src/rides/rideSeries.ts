import type { StreamsReply } from '@xoss/api-contract';
import type { MessageId } from '@xoss/i18n';
import { chartColors, type StreamSeries } from '@xoss/ui-kit';

type Streams = StreamsReply['streams'];

/** The rider's units the charts convert speed and elevation to (see `useUnits`). */
export interface SeriesUnits {
  readonly speedUnit: string;
  readonly speedFactor: number;
  readonly elevationUnit: string;
  readonly elevationFactor: number;
}

const values = (streams: Streams, name: keyof Streams) => streams[name] ?? [];

/**
 * The ride page's chart panels: one per stream the ride has a value in, in the order a rider
 * reads them. A ride without position or speed (an indoor ride, a muscle-oxygen sensor's
 * file) has only the panels of what it recorded: heart rate, power, SmO2, THb.
 */
export function rideSeries(
  streams: Streams,
  t: (id: MessageId) => string,
  units: SeriesUnits,
): StreamSeries[] {
  return [
    {
      id: 'speed',
      label: t('measure.speed'),
      unit: units.speedUnit,
      digits: 1,
      values: values(streams, 'speed').map((v) => (v === null ? null : v * units.speedFactor)),
    },
    {
      id: 'altitude',
      label: t('measure.elevation'),
      unit: units.elevationUnit,
      kind: 'area' as const,
      color: chartColors.elevation,
      values: values(streams, 'altitude').map((v) =>
        v === null ? null : v * units.elevationFactor,
      ),
    },
    {
      id: 'heart_rate',
      label: t('measure.heartRate'),
      unit: 'bpm',
      color: chartColors.heartRate,
      values: values(streams, 'heart_rate'),
    },
    {
      id: 'cadence',
      label: t('measure.cadence'),
      unit: 'rpm',
      color: chartColors.cadence,
      values: values(streams, 'cadence'),
    },
    {
      id: 'power',
      label: t('measure.power'),
      unit: 'W',
      kind: 'area' as const,
      color: chartColors.power,
      values: values(streams, 'power'),
    },
    // A muscle-oxygen sensor's: the chart palette has no colours of their own yet, so they
    // borrow two the ride page does not otherwise draw.
    {
      id: 'smo2',
      label: t('measure.smo2'),
      unit: '%',
      digits: 1,
      color: chartColors.fitness,
      values: values(streams, 'smo2'),
    },
    {
      id: 'thb',
      label: t('measure.thb'),
      unit: t('measure.thbUnit'),
      digits: 2,
      color: chartColors.form,
      values: values(streams, 'thb'),
    },
  ].filter((stream) => stream.values.some((value) => value !== null));
}
