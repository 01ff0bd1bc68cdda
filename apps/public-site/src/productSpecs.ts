import type { MessageId, MessageValues } from '@xoss/i18n';
import type { Product } from './products.ts';

// The specification tables, apart from the line-up so the home page's first load does not
// carry them.

/** One row of a specification table: a label and a value, both catalogue messages. */
export interface SpecLine {
  readonly label: MessageId;
  readonly value: MessageId;
  readonly values?: MessageValues;
}

const common: readonly SpecLine[] = [
  { label: 'spec.waterproof', value: 'common.ipx7' },
  { label: 'spec.temperature', value: 'spec.tempRange', values: { min: -10, max: 50 } },
];

/** Each product's table: the computers with the figures of spec 9. */
export const productSpecs: Readonly<Record<Product['slug'], readonly SpecLine[]>> = {
  xossnav: [
    { label: 'spec.screen', value: 'spec.inch', values: { size: 2.4 } },
    { label: 'spec.battery', value: 'spec.hoursPlus', values: { hours: 33 } },
    { label: 'spec.capacity', value: 'common.mAh', values: { value: 600 } },
    { label: 'spec.sensors', value: 'spec.peripheralsValue', values: { count: 4 } },
    { label: 'spec.pages', value: 'spec.pagesValue', values: { pages: 6, layouts: 17 } },
    { label: 'spec.dataTypes', value: 'common.number', values: { value: 49 } },
    { label: 'spec.maps', value: 'spec.mapsValue', values: { gb: 3.6 } },
    ...common,
  ],
  xossg2: [
    { label: 'spec.battery', value: 'spec.hours', values: { hours: 28 } },
    { label: 'spec.capacity', value: 'common.mAh', values: { value: 500 } },
    { label: 'spec.pages', value: 'spec.fixedPagesValue', values: { pages: 3 } },
    { label: 'spec.dataTypes', value: 'spec.dataTypesG2', values: { g: 12, gPlus: 24 } },
    ...common,
  ],
  xossG: [
    { label: 'spec.battery', value: 'spec.hours', values: { hours: 25 } },
    { label: 'spec.capacity', value: 'common.mAh', values: { value: 500 } },
    { label: 'spec.history', value: 'spec.historyValue', values: { km: 1500 } },
    ...common,
  ],
  xossSprint: [{ label: 'spec.screen', value: 'spec.inch', values: { size: 2.7 } }, ...common],
  // The accessories: what they measure, how they connect and fit, what powers them.
  xossHeartRate: [
    { label: 'spec.measures', value: 'spec.measuresHeartRate' },
    { label: 'spec.connectivity', value: 'spec.antBluetooth' },
    { label: 'spec.fitting', value: 'spec.chestStrap' },
    { label: 'spec.cell', value: 'spec.coinCell' },
  ],
  xossCadence: [
    { label: 'spec.measures', value: 'spec.measuresCadence' },
    { label: 'spec.connectivity', value: 'spec.antBluetooth' },
    { label: 'spec.fitting', value: 'spec.crankArm' },
    { label: 'spec.cell', value: 'spec.coinCell' },
    { label: 'spec.waterproof', value: 'common.ipx7' },
  ],
  xossSpeed: [
    { label: 'spec.measures', value: 'spec.measuresSpeed' },
    { label: 'spec.connectivity', value: 'spec.antBluetooth' },
    { label: 'spec.fitting', value: 'spec.wheelHub' },
    { label: 'spec.cell', value: 'spec.coinCell' },
    { label: 'spec.waterproof', value: 'common.ipx7' },
  ],
  xossLights: [
    { label: 'spec.frontLight', value: 'spec.lumens', values: { lumens: 400 } },
    { label: 'spec.rearLight', value: 'spec.lumens', values: { lumens: 30 } },
    { label: 'spec.capacity', value: 'spec.lightCapacity', values: { front: 2000, rear: 300 } },
    { label: 'spec.charging', value: 'spec.usbC' },
  ],
};
