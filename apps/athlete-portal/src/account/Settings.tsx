import { useState } from 'react';
import { settingBounds } from '@xoss/api-contract/routes';
import { distanceUnitOf, distanceUnitSetting } from '@xoss/data-fields';
import type { MessageId } from '@xoss/i18n';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, ChoiceGroup, SubmitButton } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { api, client } from '../client.ts';
import { useKeptForm } from '../useKeptForm.tsx';
import { Loaded, formText, useFailureText } from '../components/common.tsx';

const today = () => new Date().toISOString().slice(0, 10);

const fieldLabels = {
  ftp: 'settings.ftp',
  max_hr: 'settings.maxHr',
  privacy_trim_m: 'settings.privacyTrim',
  weight_kg: 'settings.weight',
  threshold_pace_s_per_km: 'settings.thresholdPace',
} as const satisfies Record<keyof typeof settingBounds, MessageId>;

/** The settings typed as numbers, each checked against the API's bounds before a save. */
const numericFields = [
  'ftp',
  'max_hr',
  'privacy_trim_m',
  'weight_kg',
  'threshold_pace_s_per_km',
] as const;

/** A pace as riders write it (`m:ss` per km), in seconds; NaN when it is not one. */
const paceSeconds = (text: string) => {
  const match = /^(\d{1,2}):([0-5]\d)$/.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
};
/** Seconds per km as `m:ss`. */
const paceText = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
type NumericField = (typeof numericFields)[number];

/** A refused field is marked invalid and described by its message. */
const fieldState = (wrong: Partial<Record<NumericField, string>>, name: NumericField) =>
  wrong[name] ? { 'aria-invalid': true, 'aria-describedby': `setting-${name}-problem` } : {};

/** The message of a refused field, right under it. */
function FieldProblem({
  fields,
  name,
}: {
  fields: Partial<Record<NumericField, string>>;
  name: NumericField;
}) {
  const text = fields[name];
  return text ? (
    <small id={`setting-${name}-problem`} className="portal__field-problem">
      {text}
    </small>
  ) : null;
}

/**
 * A setting typed as a number within the API's bounds, labelled, with its message when the
 * form refused it.
 */
function NumberSetting({
  name,
  wrong,
  defaultValue,
  step,
}: {
  name: Exclude<NumericField, 'threshold_pace_s_per_km'>;
  wrong: Partial<Record<NumericField, string>>;
  defaultValue: string;
  step?: number;
}) {
  const t = useT();
  return (
    <>
      <label>
        {t(fieldLabels[name])}
        <input
          className="xoss-select"
          id={`setting-${name}`}
          name={name}
          type="text"
          inputMode="decimal"
          {...fieldState(wrong, name)}
          min={settingBounds[name].min}
          max={settingBounds[name].max}
          {...(step === undefined ? {} : { step })}
          defaultValue={defaultValue}
        />
      </label>
      <FieldProblem fields={wrong} name={name} />
    </>
  );
}

/** Settings: FTP, max heart rate, distance and temperature units; figures follow them. */
export function SettingsPage() {
  const t = useT();
  const failureText = useFailureText();
  const id = Number(client.session.userId() ?? 0);
  const athlete = api.useGetAthleteQuery({ params: { id } }, { skip: id === 0 });
  const [save, saving] = api.usePatchAthleteMutation();
  const [problem, setProblem] = useState<string | null>(null);
  // The numeric fields the form refused, each with its message beside it.
  const [wrongFields, setWrongFields] = useState<Partial<Record<NumericField, string>>>({});
  // "Save Successfully" stands for the last save only, and only once the server said 200.
  const [saved, setSaved] = useState(false);
  // An edit survives the end of the session: kept, and offered back after the next login.
  const kept = useKeptForm('settings');
  const submit = async (form: FormData) => {
    // A new attempt starts without the last one's outcome on screen.
    setProblem(null);
    setSaved(false);
    setWrongFields({});
    // The fields are text, so what the rider typed reaches this check as typed ("abc" is
    // refused, not read as an empty field); a decimal comma counts as a point (72,5 kg).
    const number = (name: string) => {
      const value = formText(form, name).trim();
      if (value === '') return null;
      return /^-?\d+([.,]\d+)?$/.test(value) ? Number(value.replace(',', '.')) : NaN;
    };
    const settings = {
      ftp: number('ftp'),
      max_hr: number('max_hr'),
      distance_unit: distanceUnitSetting(distanceUnitOf(formText(form, 'distance'))),
      temperature_unit: formText(form, 'temperature') === 'f' ? 'f' : 'c',
      privacy_trim_m: number('privacy_trim_m') ?? 0,
      share_heart_rate: form.get('share_heart_rate') === 'on',
      share_power: form.get('share_power') === 'on',
      weight_kg: number('weight_kg'),
      ftp_rule: formText(form, 'ftp_rule') === 'twenty' ? 'twenty' : 'hour',
      threshold_pace_s_per_km:
        formText(form, 'threshold_pace').trim() === ''
          ? null
          : paceSeconds(formText(form, 'threshold_pace')),
    } as const;
    const from = formText(form, 'thresholds_from');
    // Said here, in the page's language, before anything is sent; the API holds the same line.
    const outOfRange = numericFields.filter((name) => {
      const value = settings[name];
      const { min, max } = settingBounds[name];
      const whole = name !== 'weight_kg';
      return (
        value !== null &&
        (Number.isNaN(value) || (whole && !Number.isInteger(value)) || value < min || value > max)
      );
    });
    if (outOfRange.length > 0) {
      setWrongFields(
        Object.fromEntries(
          outOfRange.map((name) => {
            const { min, max } = settingBounds[name];
            const shown = (value: number) =>
              name === 'threshold_pace_s_per_km' ? paceText(value) : value;
            return [
              name,
              t('settings.outOfRange', {
                field: t(fieldLabels[name]),
                min: shown(min),
                max: shown(max),
              }),
            ];
          }),
        ),
      );
      document.getElementById(`setting-${outOfRange[0]}`)?.focus();
      return;
    }
    if (from > today()) {
      setProblem(t('settings.futureDate'));
      return;
    }
    const result = await save({
      params: { id },
      body: { settings, ...(from ? { thresholds_from: from } : {}) },
    });
    if ('error' in result) {
      setProblem(failureText(result.error));
      return;
    }
    setSaved(true);
    kept.saved();
    client.setUnits({
      distanceUnit: distanceUnitOf(settings.distance_unit),
      temperatureUnit: settings.temperature_unit,
    });
  };
  return (
    <>
      <h1>
        <Message id="settings.title" />
      </h1>
      <p className="portal__note portal__link-row">
        <Link to="/dashboard/settings/account">
          <Message id="settings.account.link" />
        </Link>
      </p>
      {kept.offer}
      <Loaded query={athlete}>
        {(profile) => (
          <form
            ref={kept.attach}
            key={kept.key}
            className="portal__form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit(new FormData(event.currentTarget));
            }}
          >
            <NumberSetting
              name="ftp"
              wrong={wrongFields}
              defaultValue={kept.value('ftp', String(profile.settings.ftp ?? ''))}
            />
            <NumberSetting
              name="max_hr"
              wrong={wrongFields}
              defaultValue={kept.value('max_hr', String(profile.settings.max_hr ?? ''))}
            />
            <label>
              <Message id="settings.thresholdsFrom" />
              <input
                className="xoss-select"
                name="thresholds_from"
                type="date"
                max={today()}
                defaultValue={kept.value('thresholds_from', today())}
              />
            </label>
            <NumberSetting
              name="weight_kg"
              wrong={wrongFields}
              step={0.1}
              defaultValue={kept.value('weight_kg', String(profile.settings.weight_kg ?? ''))}
            />
            <label>
              <Message id="settings.thresholdPace" />
              <input
                className="xoss-select"
                id="setting-threshold_pace_s_per_km"
                name="threshold_pace"
                type="text"
                inputMode="numeric"
                placeholder="4:30"
                {...fieldState(wrongFields, 'threshold_pace_s_per_km')}
                defaultValue={kept.value(
                  'threshold_pace',
                  profile.settings.threshold_pace_s_per_km === null
                    ? ''
                    : paceText(profile.settings.threshold_pace_s_per_km),
                )}
              />
            </label>
            <FieldProblem fields={wrongFields} name="threshold_pace_s_per_km" />
            <UnitChoice
              name="ftp_rule"
              legend={t('settings.ftpRule')}
              initial={kept.value('ftp_rule', profile.settings.ftp_rule)}
              options={[
                { value: 'hour', label: t('training.ftp.rule.hour') },
                { value: 'twenty', label: t('training.ftp.rule.twenty') },
              ]}
            />
            <UnitChoice
              name="distance"
              legend={t('settings.distanceUnit')}
              initial={kept.value('distance', distanceUnitOf(profile.settings.distance_unit))}
              options={[
                { value: 'km', label: t('settings.km') },
                { value: 'mi', label: t('settings.mi') },
              ]}
            />
            <UnitChoice
              name="temperature"
              legend={t('settings.temperatureUnit')}
              initial={kept.value('temperature', profile.settings.temperature_unit)}
              options={[
                { value: 'c', label: t('settings.celsius') },
                { value: 'f', label: t('settings.fahrenheit') },
              ]}
            />
            <fieldset id="privacy" className="portal__fieldset">
              <legend>
                <Message id="settings.privacy" />
              </legend>
              <NumberSetting
                name="privacy_trim_m"
                wrong={wrongFields}
                step={50}
                defaultValue={kept.value('privacy_trim_m', String(profile.settings.privacy_trim_m))}
              />
              <label className="xoss-choice">
                <input
                  type="checkbox"
                  name="share_heart_rate"
                  defaultChecked={kept.checked(
                    'share_heart_rate',
                    profile.settings.share_heart_rate,
                  )}
                />
                <Message id="settings.shareHeartRate" />
              </label>
              <label className="xoss-choice">
                <input
                  type="checkbox"
                  name="share_power"
                  defaultChecked={kept.checked('share_power', profile.settings.share_power)}
                />
                <Message id="settings.sharePower" />
              </label>
            </fieldset>
            <Alert>{problem}</Alert>
            {saved ? (
              <p role="status" className="portal__saved">
                {t('toast.saveSuccess')}
              </p>
            ) : null}
            <SubmitButton busy={saving.isLoading}>
              <Message id="common.save" />
            </SubmitButton>
          </form>
        )}
      </Loaded>
      <PrivacyZones />
    </>
  );
}

/** The places inside which no shared ride shows its track (home, work). */
function PrivacyZones() {
  const failureText = useFailureText();
  const zones = api.useListPrivacyZonesQuery();
  const [create, creating] = api.useCreatePrivacyZoneMutation();
  const [remove, removing] = api.useDeletePrivacyZoneMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const add = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const result = await create({
      body: {
        name: formText(data, 'name').trim(),
        latitude: Number(formText(data, 'latitude')),
        longitude: Number(formText(data, 'longitude')),
        radius_m: Number(formText(data, 'radius_m')),
      },
    });
    if ('error' in result) setProblem(failureText(result.error, { withDetail: true }));
    else {
      setProblem(null);
      form.reset();
    }
  };
  return (
    <section className="portal__card" aria-labelledby="privacy-zones">
      <h2 id="privacy-zones">
        <Message id="settings.zones" />
      </h2>
      <p className="portal__note">
        <Message id="settings.zonesHelp" />
      </p>
      <Loaded query={zones}>
        {(list) => (
          <ul className="portal__list">
            {list.map((zone) => (
              <li key={zone.id}>
                {zone.name} ({zone.latitude.toFixed(4)}, {zone.longitude.toFixed(4)},{' '}
                {zone.radius_m} m){' '}
                <button
                  type="button"
                  className="xoss-button"
                  disabled={removing.isLoading}
                  onClick={() => void remove({ params: { id: zone.id } })}
                >
                  <Message id="settings.zoneRemove" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
      <form
        className="portal__form"
        onSubmit={(event) => {
          event.preventDefault();
          void add(event.currentTarget);
        }}
      >
        <label>
          <Message id="settings.zoneName" />
          <input className="xoss-select" name="name" required maxLength={60} />
        </label>
        <label>
          <Message id="settings.zoneLatitude" />
          <input
            className="xoss-select"
            name="latitude"
            type="number"
            min={-90}
            max={90}
            step="any"
            required
          />
        </label>
        <label>
          <Message id="settings.zoneLongitude" />
          <input
            className="xoss-select"
            name="longitude"
            type="number"
            min={-180}
            max={180}
            step="any"
            required
          />
        </label>
        <label>
          <Message id="settings.zoneRadius" />
          <input
            className="xoss-select"
            name="radius_m"
            type="number"
            min={100}
            max={5000}
            step={50}
            defaultValue={300}
            required
          />
        </label>
        <Alert>{problem}</Alert>
        <SubmitButton busy={creating.isLoading}>
          <Message id="settings.zoneAdd" />
        </SubmitButton>
      </form>
    </section>
  );
}

function UnitChoice({
  name,
  legend,
  initial,
  options,
}: {
  name: string;
  legend: string;
  initial: string;
  options: { value: string; label: string }[];
}) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <ChoiceGroup legend={legend} options={options} value={value} onChange={setValue} />
      <input type="hidden" name={name} value={value} />
    </>
  );
}
