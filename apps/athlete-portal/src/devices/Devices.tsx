import { useId, useState } from 'react';
import type { DeviceModel } from '@xoss/api-contract';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, ConfirmDialog, EmptyState, SubmitButton } from '@xoss/ui-kit';
import { Link, useNavigate, useParams } from 'react-router';
import { api, failureMessage } from '../client.ts';
import { Loaded, formText, useFailureText, useModelName, useToast } from '../components/common.tsx';
import { DeviceTable } from './DeviceTable.tsx';

const ADD_DEVICE_PATH = '/dashboard/device/add';
/** The public site's page with the XOSS app for each phone. */
const APP_DOWNLOAD_PATH = '/product/download';
/** The models a serial number can be added for (the contract's `deviceModelSchema`). */
const MODELS: readonly DeviceModel[] = ['NAV', 'NAV+', 'SPRINT', 'G2', 'G2+', 'G', 'G+'];
/** The contract's rule for a serial number, checked here too so the field says so at once. */
const SERIAL = /^[A-Za-z0-9-]{6,32}$/;

/** `/dashboard/device/list`: the rider's devices, each with Manage, and Add a device. */
export function DeviceList() {
  const t = useT();
  return (
    <>
      <h1>
        <Message id="devices.title" />
      </h1>
      <div className="portal__actions">
        <Link className="xoss-button" to={ADD_DEVICE_PATH}>
          <Message id="devices.add" />
        </Link>
      </div>
      <DeviceTable
        caption={t('devices.title')}
        columns={[
          {
            key: 'manage',
            header: <span className="xoss-visually-hidden">{t('common.manage')}</span>,
            cell: (device, index) => (
              <Link
                className="xoss-button"
                to={`/dashboard/device/list/settings/${index}`}
                aria-label={`${t('common.manage')}: ${device.model} ${device.serial}`}
              >
                <Message id="common.manage" />
              </Link>
            ),
          },
        ]}
      />
    </>
  );
}

/**
 * `/dashboard/device/list/settings/{device_index}`: model, firmware version, manufacture,
 * and Remove behind a Confirm/Cancel prompt, then 'Device removed successfully'.
 */
export function DeviceSettings() {
  const t = useT();
  const modelName = useModelName();
  const toast = useToast();
  const failureText = useFailureText();
  const navigate = useNavigate();
  const index = Number(useParams().deviceIndex);
  const devices = api.useListDevicesQuery({});
  const [remove, removing] = api.useDeleteDeviceMutation();
  const [confirming, setConfirming] = useState(false);
  const removeDevice = async (id: number) => {
    const result = await remove({ params: { id } });
    if ('error' in result) {
      toast(failureText(result.error), { tone: 'error' });
      return;
    }
    toast(t('toast.deviceRemoved'));
    void navigate('/dashboard/device/list');
  };
  return (
    <Loaded query={devices}>
      {(page) => {
        const device = page.results[index];
        if (!device)
          return (
            <EmptyState title={<Message id="errors.10404" />}>
              <Link to="/dashboard/device/list">{t('devices.title')}</Link>
            </EmptyState>
          );
        return (
          <>
            <h1>
              {modelName(device.model)} · {device.serial}
            </h1>
            <table className="xoss-table">
              <caption>
                <Message id="nav.settings" />
              </caption>
              <tbody>
                <tr>
                  <th scope="row">{t('devices.model')}</th>
                  <td>{modelName(device.model)}</td>
                </tr>
                <tr>
                  <th scope="row">{t('devices.firmware')}</th>
                  <td>{device.firmware_version}</td>
                </tr>
                <tr>
                  <th scope="row">{t('devices.manufacture')}</th>
                  <td>{device.manufacture}</td>
                </tr>
                <tr>
                  <th scope="row">{t('devices.serial')}</th>
                  <td>{device.serial}</td>
                </tr>
              </tbody>
            </table>
            <div className="portal__actions">
              <Link className="xoss-button" to={`/dashboard/device/list/manager?device=${index}`}>
                <Message id="devices.layouts" />
              </Link>
              <button
                type="button"
                className="xoss-button"
                data-variant="danger"
                disabled={removing.isLoading}
                onClick={() => setConfirming(true)}
              >
                <Message id="devices.remove" />
              </button>
            </div>
            <ConfirmDialog
              open={confirming}
              tone="danger"
              message={t('devices.removeConfirm', { name: `${device.model} (${device.serial})` })}
              onCancel={() => setConfirming(false)}
              onConfirm={() => {
                setConfirming(false);
                void removeDevice(device.id);
              }}
            />
          </>
        );
      }}
    </Loaded>
  );
}

/**
 * `/dashboard/device/add`: devices are paired in the XOSS phone app (binding happens there,
 * over Bluetooth, which a web page cannot do), so the page says how, with the link to the
 * app. A device the app cannot reach (a rider without a phone at hand) can still be added by
 * its serial number and model; the serial is checked beside its field, here and by the API.
 */
export function AddDevice() {
  const t = useT();
  const modelName = useModelName();
  const toast = useToast();
  const failureText = useFailureText();
  const navigate = useNavigate();
  const serialId = useId();
  const serialProblemId = useId();
  const [bind, binding] = api.useBindDeviceMutation();
  const [serialProblem, setSerialProblem] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (form: FormData) => {
    setProblem(null);
    const serial = formText(form, 'serial').trim();
    const model = formText(form, 'model') as DeviceModel;
    if (!SERIAL.test(serial)) {
      setSerialProblem(t('devices.serialInvalid'));
      return;
    }
    setSerialProblem(null);
    const result = await bind({ body: { serial, model } });
    if ('error' in result) {
      const { id } = failureMessage(result.error);
      // The API names the serial for both: bound to another account (10409), or already
      // on this one (10400); either belongs beside the field.
      if (id === 'errors.10409') setSerialProblem(t('devices.serialTaken'));
      else if (id === 'errors.10400') setSerialProblem(t('devices.serialOwned'));
      else setProblem(failureText(result.error));
      return;
    }
    toast(t('devices.added', { name: `${result.data.model} (${result.data.serial})` }));
    await navigate('/dashboard/device/list');
  };

  return (
    <>
      <h1>
        <Message id="devices.add" />
      </h1>
      <section className="portal__card" aria-labelledby="pair-in-app">
        <h2 id="pair-in-app">
          <Message id="devices.pairTitle" />
        </h2>
        <p>
          <Message id="devices.pairIntro" />
        </p>
        <ol>
          <li>
            <Message id="devices.pairStep1" />
          </li>
          <li>
            <Message id="devices.pairStep2" />
          </li>
          <li>
            <Message id="devices.pairStep3" />
          </li>
        </ol>
        <a className="xoss-button" href={APP_DOWNLOAD_PATH}>
          <Message id="devices.getApp" />
        </a>
      </section>
      <section aria-labelledby="add-by-serial">
        <h2 id="add-by-serial">
          <Message id="devices.bySerial" />
        </h2>
        <form
          className="portal__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit(new FormData(event.currentTarget));
          }}
        >
          <label htmlFor={serialId}>
            <Message id="devices.serial" />
          </label>
          <input
            id={serialId}
            className="xoss-select"
            name="serial"
            autoComplete="off"
            maxLength={32}
            aria-describedby={serialProblem ? serialProblemId : undefined}
            aria-invalid={serialProblem ? true : undefined}
            onChange={() => setSerialProblem(null)}
          />
          {serialProblem ? (
            <small id={serialProblemId} className="portal__field-problem">
              {serialProblem}
            </small>
          ) : (
            <small className="portal__note">
              <Message id="devices.serialHint" />
            </small>
          )}
          <label>
            <Message id="devices.model" />
            <select className="xoss-select" name="model" defaultValue="NAV+">
              {MODELS.map((model) => (
                <option key={model} value={model}>
                  {modelName(model)}
                </option>
              ))}
            </select>
          </label>
          <Alert>{problem}</Alert>
          <SubmitButton busy={binding.isLoading}>
            <Message id="devices.addSubmit" />
          </SubmitButton>
        </form>
      </section>
    </>
  );
}
