import { useState } from 'react';
import { Message, useT } from '@xoss/i18n/react';
import { ConfirmDialog, EmptyState } from '@xoss/ui-kit';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../client.ts';
import { Loaded, useFailureText, useToast } from './common.tsx';
import { DeviceTable } from './DeviceTable.tsx';

/** `/dashboard/device/list`: the rider's devices, each with Manage. */
export function DeviceList() {
  const t = useT();
  return (
    <>
      <h1>
        <Message id="devices.title" />
      </h1>
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
              {device.model} · {device.serial}
            </h1>
            <table className="xoss-table">
              <caption>
                <Message id="nav.settings" />
              </caption>
              <tbody>
                <tr>
                  <th scope="row">{t('devices.model')}</th>
                  <td>{device.model}</td>
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
