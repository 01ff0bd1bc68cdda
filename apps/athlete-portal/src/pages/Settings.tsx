import { useState } from 'react';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, ChoiceGroup, SubmitButton } from '@xoss/ui-kit';
import { api, client } from '../client.ts';
import { Loaded, formText, useFailureText, useToast } from './common.tsx';

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
      distance_unit: formText(form, 'distance') === 'mi' ? 1 : 0,
      temperature_unit: formText(form, 'temperature') === 'f' ? 'f' : 'c',
    } as const;
    const from = formText(form, 'thresholds_from');
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
      distanceUnit: settings.distance_unit === 1 ? 'mi' : 'km',
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
                min={0}
                max={2000}
                defaultValue={profile.settings.ftp ?? ''}
              />
            </label>
            <label>
              <Message id="settings.maxHr" />
              <input
                className="xoss-select"
                name="max_hr"
                type="number"
                min={0}
                max={260}
                defaultValue={profile.settings.max_hr ?? ''}
              />
            </label>
            <label>
              <Message id="settings.thresholdsFrom" />
              <input
                className="xoss-select"
                name="thresholds_from"
                type="date"
                max={new Date().toISOString().slice(0, 10)}
                defaultValue={new Date().toISOString().slice(0, 10)}
              />
            </label>
            <UnitChoice
              name="distance"
              legend={t('settings.distanceUnit')}
              initial={profile.settings.distance_unit === 1 ? 'mi' : 'km'}
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
            <Alert>{problem}</Alert>
            <SubmitButton busy={saving.isLoading}>
              <Message id="common.save" />
            </SubmitButton>
          </form>
        )}
      </Loaded>
    </>
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
