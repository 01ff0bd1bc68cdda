export { COPYRIGHT_START_YEAR, copyrightYears } from './copyright.ts';
export { Footer, footerGroups, type FooterGroup, type FooterProps } from './Footer.tsx';
export {
  Navbar,
  riderNavItems,
  SHOP_URL,
  visitorNavItems,
  type NavItem,
  type NavbarProps,
  type RenderLink,
} from './Navbar.tsx';
export { LanguageMenu, languageNames, type LanguageMenuProps } from './LanguageMenu.tsx';
export { CookieNotice, type CookieNoticeProps } from './CookieNotice.tsx';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog.tsx';
export { ToastViewport, useToasts, type Toast, type ToastViewportProps } from './Toasts.tsx';
export { Alert, EmptyState, Loading, RouteProgress, type EmptyStateProps } from './Feedback.tsx';
export { SubmitButton, type SubmitButtonProps } from './Forms.tsx';
export { ErrorBoundary, PageFailed, type PageFailedProps } from './PageErrors.tsx';
export { ChatBubble, type ChatBubbleProps } from './ChatBubble.tsx';
export {
  ChartTypePicker,
  ChoiceGroup,
  FieldPicker,
  FieldTile,
  LayoutTemplatePicker,
  SizePicker,
  type FieldPickerProps,
  type FieldTileProps,
} from './DataFieldControls.tsx';
export {
  DeviceScreenPreview,
  sampleValues,
  type DeviceScreenPreviewProps,
} from './DeviceScreenPreview.tsx';
export {
  DeviceIllustration,
  ProductCard,
  type DeviceIllustrationProps,
  type DeviceShape,
  type ProductCardProps,
} from './Product.tsx';
export { DownloadTable, SpecTable, type DownloadRow, type SpecRow } from './ProductTables.tsx';
export { chartColors } from './chartColors.ts';
export {
  StreamCharts,
  indexAtX,
  type IndexRange,
  type StreamBand,
  type StreamChartsProps,
  type StreamMarker,
  type StreamSeries,
} from './StreamCharts.tsx';
export { TrendChart, type TrendChartProps, type TrendPoint } from './TrendChart.tsx';
export { CurveChart, type CurveChartProps, type CurveSeries } from './CurveChart.tsx';
export {
  FitnessChart,
  TotalsChart,
  TrainingCalendar,
  type CalendarDay,
  type FitnessChartProps,
  type FitnessPoint,
  type TotalsBar,
  type TotalsChartProps,
  type TrainingCalendarProps,
} from './TrainingCharts.tsx';
export { ZoneBars, type ZoneBar, type ZoneBarsProps } from './ZoneBars.tsx';
export {
  DEFAULT_TILE_URL,
  RegionPicker,
  RouteMap,
  tileUrlFrom,
  type LonLat,
  type MapRegion,
  type RegionPickerProps,
  type RouteMapProps,
  type TrackSegment,
} from './Maps.tsx';
export {
  formatBytes,
  formatClock,
  formatShortDuration,
  importEstimate,
  importMinutes,
} from './format.ts';
export { MOBILE_QUERY, useLayout, useMediaQuery, type Layout } from './useMediaQuery.ts';
export { useInView } from './useInView.ts';
