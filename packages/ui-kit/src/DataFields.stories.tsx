import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import {
  dataFields,
  defaultDocument,
  deviceProfiles,
  fieldByKey,
  type ChartType,
  type FieldId,
  type SlotSize,
} from '@xoss/data-fields';
import {
  ChartTypePicker,
  ChoiceGroup,
  FieldPicker,
  FieldTile,
  LayoutTemplatePicker,
  SizePicker,
} from './DataFieldControls.tsx';
import { DeviceScreenPreview } from './DeviceScreenPreview.tsx';

const meta = {
  title: 'Data fields/Field tile',
  component: FieldTile,
  subcomponents: {
    FieldPicker,
    ChoiceGroup,
    SizePicker,
    ChartTypePicker,
    LayoutTemplatePicker,
    DeviceScreenPreview,
  },
  args: { field: fieldByKey('Speed')! },
} satisfies Meta<typeof FieldTile>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Normal: Story = {};
export const Selected: Story = { args: { selected: true } };
export const Disabled: Story = { args: { disabled: true, field: dataFields[20]! } };

function PickerStory() {
  const [value, setValue] = useState<FieldId | null>(fieldByKey('Power')!.id);
  return <FieldPicker value={value} onChange={setValue} />;
}
export const Picker: StoryObj<typeof FieldPicker> = { render: () => <PickerStory /> };
function PickerForGStory() {
  const [value, setValue] = useState<FieldId | null>(fieldByKey('Speed')!.id);
  return (
    <FieldPicker
      value={value}
      onChange={setValue}
      available={deviceProfiles.G.fields}
      slotSize="Small"
    />
  );
}
export const PickerForG: StoryObj<typeof FieldPicker> = { render: () => <PickerForGStory /> };
function SizesStory() {
  const [value, setValue] = useState<SlotSize | null>('Large');
  return <SizePicker value={value} onChange={setValue} />;
}
export const Sizes: StoryObj<typeof SizePicker> = { render: () => <SizesStory /> };
function ChartTypesStory() {
  const [value, setValue] = useState<ChartType | null>('line');
  return <ChartTypePicker value={value} onChange={setValue} />;
}
export const ChartTypes: StoryObj<typeof ChartTypePicker> = { render: () => <ChartTypesStory /> };

const navDocument = defaultDocument(deviceProfiles.NAV, 'NAV-0001', 1_790_000_000);
export const PreviewNav: StoryObj<typeof DeviceScreenPreview> = {
  render: () => (
    <DeviceScreenPreview
      profile={deviceProfiles.NAV}
      page={navDocument.pages[0]!}
      settings={{ distanceUnit: 0, temperatureUnit: 'c' }}
    />
  ),
};
function PreviewMilesEditableStory() {
  const [slot, setSlot] = useState(0);
  return (
    <DeviceScreenPreview
      profile={deviceProfiles.NAV}
      page={navDocument.pages[1] ?? navDocument.pages[0]!}
      settings={{ distanceUnit: 1, temperatureUnit: 'f' }}
      selectedSlot={slot}
      onSlotClick={setSlot}
    />
  );
}
export const PreviewMilesEditable: StoryObj<typeof DeviceScreenPreview> = {
  render: () => <PreviewMilesEditableStory />,
};
const gDocument = defaultDocument(deviceProfiles.G, 'G-0001', 1_790_000_000);
export const PreviewG: StoryObj<typeof DeviceScreenPreview> = {
  render: () => (
    <DeviceScreenPreview
      profile={deviceProfiles.G}
      page={gDocument.pages[0]!}
      settings={{ distanceUnit: 0, temperatureUnit: 'c' }}
    />
  ),
};

function LayoutsStory() {
  const [pid, setPid] = useState<number | null>(11);
  return (
    <LayoutTemplatePicker layouts={deviceProfiles.NAV.layouts} value={pid} onChange={setPid} />
  );
}
export const Layouts: StoryObj<typeof LayoutTemplatePicker> = { render: () => <LayoutsStory /> };
export const PickerOnMobile: StoryObj<typeof FieldPicker> = {
  render: () => <PickerStory />,
  globals: { viewport: { value: 'mobile', isRotated: false } },
};
