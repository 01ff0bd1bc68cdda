export { categories, type Category } from './categories.ts';
export {
  chartTypes,
  dataFields,
  fieldById,
  fieldByKey,
  isFieldKey,
  type ChartType,
  type DataField,
  type FieldDisplay,
  type FieldId,
  type FieldKey,
  type UnitKind,
} from './fieldCatalogue.ts';
export { ICON_VIEWBOX, fieldIcon, type IconVariant } from './icons.ts';
export {
  MAX_SLOTS_PER_PAGE,
  layoutTemplate,
  layoutTemplates,
  slotSizes,
  type LayoutTemplate,
  type Slot,
  type SlotSize,
} from './layouts.ts';
export {
  deviceModels,
  deviceProfiles,
  profileFor,
  profileSupports,
  type DeviceModel,
  type DeviceProfile,
} from './profiles.ts';
export {
  PANELS_LIMITS,
  parsePanels,
  serializePanels,
  toPanelsObject,
  type LayoutDocument,
  type LayoutPage,
} from './panelsJson.ts';
export { validate } from './validate.ts';
export { problemText, type Translate } from './problemText.ts';
export {
  addPage,
  changeLayout,
  defaultDocument,
  deletePage,
  movePage,
  setChartType,
  setField,
} from './operations.ts';
export { formatFieldValue, type FormattedValue, type UnitSettings } from './format.ts';
export { formatDuration, formatTimeOfDay, type DurationFormat } from './duration.ts';
export { fail, ok, type Problem, type ProblemCode, type Result } from './result.ts';
export {
  FEET_PER_METRE,
  METRES_PER_MILE,
  distanceInUserUnit,
  distanceUnitOf,
  distanceUnitSetting,
  elevationInUserUnit,
  formatInUserUnit,
  speedInUserUnit,
  temperatureInUserUnit,
  usesMiles,
  type DistanceUnit,
  type DistanceUnitSetting,
  type Measure,
  type TemperatureUnit,
} from './units.ts';
