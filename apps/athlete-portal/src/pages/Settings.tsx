import { useState } from 'react';
import { settingBounds } from '@xoss/api-contract/routes';
import { distanceUnitOf, distanceUnitSetting } from '@xoss/data-fields';
import type { MessageId } from '@xoss/i18n';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, ChoiceGroup, SubmitButton } from '@xoss/ui-kit';
import { api, client } from '../client.ts';
import { Loaded, formText, useFailureText, useToast } from './common.tsx';

const today = () => new Date().toISOString().slice(0, 10);

const fieldLabels = {
  ftp: 'settings.ftp',
  max_hr: 'settings.maxHr',
  privacy_trim_m: 'settings.privacyTrim',
  weight_kg: 'settings.weight',
} as const satisfies Record<keyof typeof settingBounds, MessageId>;

/** Settings: FTP, max heart rate, distance and temperature units; figures follow them. */
export function SettingsPage() {
  const t = useT();
  const toast = useToast();
  const failureText = useFailureText();
  const id = Number(client.session.userId() ?? 0);
  const athlete = api.useGetAthleteQuery({ params: { id } }, { skip: id === 0 });
  const [save, saving] = api.usePatchAthleteMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (form: FormData) => {
    const number = (name: string) => {
      const value = formText(form, name).trim();
      return value === '' ? null : Number(value);
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
    } as const;
    const from = formText(form, 'thresholds_from');
    // Said here, in the page's language, before anything is sent; the API holds the same line.
    const outOfRange = (['ftp', 'max_hr', 'privacy_trim_m', 'weight_kg'] as const).find((name) => {
      const value = settings[name];
      const { min, max } = settingBounds[name];
      const whole = name !== 'weight_kg';
      return (
        value !== null &&
        (Number.isNaN(value) || (whole && !Number.isInteger(value)) || value < min || value > max)
      );
    });
    if (outOfRange) {
      const { min, max } = settingBounds[outOfRange];
      setProblem(t('settings.outOfRange', { field: t(fieldLabels[outOfRange]), min, max }));
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
    setProblem(null);
    client.setUnits({
      distanceUnit: distanceUnitOf(settings.distance_unit),
      temperatureUnit: settings.temperature_unit,
    });
    toast(t('toast.saveSuccess'));
  };
  return (
    <>
      <h1>
        <Message id="settings.title" />
      </h1>
      <Loaded query={athlete}>
        {(profile) => (
          <form
            className="portal__form"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit(new FormData(event.currentTarget));
            }}
          >
            <label>
              <Message id="settings.ftp" />
              <input
                className="xoss-select"
                name="ftp"
                type="number"
                min={settingBounds.ftp.min}
                max={settingBounds.ftp.max}
                defaultValue={profile.settings.ftp ?? ''}
              />
            </label>
            <label>
              <Message id="settings.maxHr" />
              <input
                className="xoss-select"
                name="max_hr"
                type="number"
                min={settingBounds.max_hr.min}
                max={settingBounds.max_hr.max}
                defaultValue={profile.settings.max_hr ?? ''}
              />
            </label>
            <label>
              <Message id="settings.thresholdsFrom" />
              <input
                className="xoss-select"
                name="thresholds_from"
                type="date"
                max={today()}
                defaultValue={today()}
              />
            </label>
            <label>
              <Message id="settings.weight" />
              <input
                className="xoss-select"
                name="weight_kg"
                type="number"
                min={settingBounds.weight_kg.min}
                max={settingBounds.weight_kg.max}
                step={0.1}
                defaultValue={profile.settings.weight_kg ?? ''}
              />
            </label>
            <UnitChoice
              name="ftp_rule"
              legend={t('settings.ftpRule')}
              initial={profile.settings.ftp_rule}
              options={[
                { value: 'hour', label: t('training.ftp.rule.hour') },
                { value: 'twenty', label: t('training.ftp.rule.twenty') },
              ]}
            />
            <UnitChoice
              name="distance"
              legend={t('settings.distanceUnit')}
              initial={distanceUnitOf(profile.settings.distance_unit)}
              options={[
                { value: 'km', label: t('settings.km') },
                { value: 'mi', label: t('settings.mi') },
              ]}
            />
            <UnitChoice
              name="temperature"
              legend={t('settings.temperatureUnit')}
              initial={profile.settings.temperature_unit}
              options={[
                { value: 'c', label: t('settings.celsius') },
                { value: 'f', label: t('settings.fahrenheit') },
              ]}
            />
            <fieldset id="privacy" className="portal__fieldset">
              <legend>
                <Message id="settings.privacy" />
              </legend>
              <label>
                <Message id="settings.privacyTrim" />
                <input
                  className="xoss-select"
                  name="privacy_trim_m"
                  type="number"
                  min={settingBounds.privacy_trim_m.min}
                  max={settingBounds.privacy_trim_m.max}
                  step={50}
                  defaultValue={profile.settings.privacy_trim_m}
                />
              </label>
              <label className="xoss-choice">
                <input
                  type="checkbox"
                  name="share_heart_rate"
                  defaultChecked={profile.settings.share_heart_rate}
                />
                <Message id="settings.shareHeartRate" />
              </label>
              <label className="xoss-choice">
                <input
                  type="checkbox"
                  name="share_power"
                  defaultChecked={profile.settings.share_power}
                />
                <Message id="settings.sharePower" />
              </label>
            </fieldset>
            <Alert>{problem}</Alert>
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
