import { useId, type ReactNode } from 'react';
import {
  categories,
  chartTypes,
  dataFields,
  layoutTemplate,
  slotSizes,
  type ChartType,
  type DataField,
  type FieldId,
  type FieldKey,
  type SlotSize,
} from '@xoss/data-fields';
import type { MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';

const fieldName = (field: DataField): MessageId => field.messageIds.name;

export interface FieldTileProps {
  readonly field: DataField;
  readonly selected?: boolean;
  readonly disabled?: boolean;
  /** Called with the field's id (`DataField.id`, as a layout stores it). */
  readonly onSelect?: (id: FieldId) => void;
}

/**
 * One data field as a toggle: its icon (the light variant when selected, spec 3) and its
 * name. The icons are the package's own static SVG.
 */
export function FieldTile({ field, selected = false, disabled = false, onSelect }: FieldTileProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <button
      type="button"
      className="xoss-field-tile"
      aria-pressed={selected}
      disabled={disabled}
      title={t(field.messageIds.description)}
      onClick={() => onSelect?.(field.id)}
    >
      <span
        className="xoss-field-tile__icon"
        aria-hidden="true"
        // Static SVG from @xoss/data-fields, never user input.
        dangerouslySetInnerHTML={{ __html: selected ? field.icons.selected : field.icons.normal }}
      />
      {/* Its language, so a long compound hyphenates where the browser knows the language
          (and breaks anywhere else) rather than leave the tile. */}
      <span className="xoss-field-tile__name" lang={locale}>
        {t(fieldName(field))}
      </span>
    </button>
  );
}

export interface FieldPickerProps {
  /**
   * The selected field's id: a layout slot's value as it is (`LayoutPage.items[slot]`); an id
   * the catalogue does not know selects nothing.
   */
  readonly value: FieldId | null;
  /** Called with the chosen field's id, to store in the slot as it is. */
  readonly onChange: (id: FieldId) => void;
  /** Fields the device offers (`DeviceProfile.fields`); others are shown disabled (all 49 by default). */
  readonly available?: readonly FieldKey[];
  /** Hide unavailable fields instead of disabling them. */
  readonly hideUnavailable?: boolean;
  /** Charts and gauges need a Large slot: pass the slot's size to disable them elsewhere. */
  readonly slotSize?: SlotSize;
}

/** The data-field choice (spec 3): the 49 fields grouped by their ten categories. */
export function FieldPicker({
  value,
  onChange,
  available,
  hideUnavailable = false,
  slotSize,
}: FieldPickerProps) {
  const t = useT();
  const allowed = (field: DataField) =>
    (available === undefined || available.includes(field.key)) &&
    (slotSize === undefined || slotSize === 'Large' || !field.needsLargeSlot);
  return (
    <div className="xoss-field-picker xoss-root">
      {categories.map((category) => {
        const fields = dataFields.filter(
          (field) => field.category === category && (!hideUnavailable || allowed(field)),
        );
        if (fields.length === 0) return null;
        return (
          <fieldset key={category}>
            <legend>{t(`category.${category}`)}</legend>
            <div className="xoss-field-picker__grid">
              {fields.map((field) => (
                <FieldTile
                  key={field.key}
                  field={field}
                  selected={field.id === value}
                  disabled={!allowed(field)}
                  onSelect={onChange}
                />
              ))}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}

interface ChoiceGroupProps<T extends string> {
  readonly legend: ReactNode;
  readonly options: readonly { value: T; label: ReactNode; disabled?: boolean }[];
  readonly value: T | null;
  readonly onChange: (value: T) => void;
}

/** A labelled radio group drawn as buttons: arrow keys move, Space selects. */
export function ChoiceGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
}: ChoiceGroupProps<T>) {
  const name = useId();
  const locale = useLocale();
  return (
    <fieldset className="xoss-choice-group xoss-root" lang={locale}>
      <legend>{legend}</legend>
      <div className="xoss-choice-group__options">
        {options.map((option) => (
          <label key={option.value} className="xoss-choice">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const sizeLabels: Record<SlotSize, MessageId> = {
  Large: 'layout.large',
  Medium: 'layout.medium',
  Small: 'layout.small',
};

/** The layout selector of spec 2: Large, Medium, Small. */
export function SizePicker({
  value,
  onChange,
}: {
  readonly value: SlotSize | null;
  readonly onChange: (size: SlotSize) => void;
}) {
  const t = useT();
  return (
    <ChoiceGroup
      legend={<Message id="layout.size" />}
      options={slotSizes.map((size) => ({ value: size, label: t(sizeLabels[size]) }))}
      value={value}
      onChange={onChange}
    />
  );
}

/** The chart-type selector of spec 2: line or area. */
export function ChartTypePicker({
  value,
  onChange,
}: {
  readonly value: ChartType | null;
  readonly onChange: (type: ChartType) => void;
}) {
  const t = useT();
  return (
    <ChoiceGroup
      legend={<Message id="layout.chartType" />}
      options={chartTypes.map((type) => ({
        value: type,
        label: t(type === 'line' ? 'layout.chart.line' : 'layout.chart.area'),
      }))}
      value={value}
      onChange={onChange}
    />
  );
}

/**
 * The layout choice: every template the device draws, as a thumbnail of its slots, in a
 * radio group (arrow keys move, the name says how many fields).
 */
export function LayoutTemplatePicker({
  layouts,
  value,
  onChange,
  aspect = 4 / 3,
}: {
  /** The `pid`s the device supports (`profile.layouts`). */
  readonly layouts: readonly number[];
  readonly value: number | null;
  readonly onChange: (pid: number) => void;
  /** Screen height over width, for the thumbnails. */
  readonly aspect?: number;
}) {
  const t = useT();
  const width = 48;
  const height = Math.round(width * aspect);
  return (
    <ChoiceGroup
      legend={t('layout.chooseLayout')}
      options={layouts.flatMap((pid) => {
        const template = layoutTemplate(pid);
        if (!template) return [];
        return [
          {
            value: String(pid),
            label: (
              <>
                <svg width={width} height={height} aria-hidden="true">
                  {template.slots.map((slot, index) => (
                    <rect
                      key={index}
                      x={slot.x * width + 1}
                      y={slot.y * height + 1}
                      width={slot.width * width - 2}
                      height={slot.height * height - 2}
                      className="xoss-template-slot"
                      data-size={slot.size}
                    />
                  ))}
                </svg>
                <span className="xoss-visually-hidden">
                  {t('layout.template', { pid, count: template.slots.length })}
                </span>
              </>
            ),
          },
        ];
      })}
      value={value === null ? null : String(value)}
      onChange={(pid) => onChange(Number(pid))}
    />
  );
}
