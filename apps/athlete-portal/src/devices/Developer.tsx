import { useState } from 'react';
import type { Device } from '@xoss/api-contract';
import { parsePanels, serializePanels } from '@xoss/data-fields';
import { Message, useT } from '@xoss/i18n/react';
import { Alert } from '@xoss/ui-kit';
import { client } from '../client.ts';
import { saveFile, useFailureText } from '../components/common.tsx';
import { DeviceTable } from './DeviceTable.tsx';

/** A firmware version with a pre-release tag (`2.4.0-beta.3`) is on the beta channel. */
export const channelOf = (version: string) =>
  /[-.](alpha|beta|rc)\b/i.test(version) ? 'beta' : 'stable';

/**
 * `/developer/mydevices/` (design left to us by the spec): every device's serial number,
 * firmware version and channel, and its data pages exported as the `panels.json` file the
 * device and the app read.
 */
export function DeveloperDevices() {
  const t = useT();
  const failureText = useFailureText();
  const [problem, setProblem] = useState<string | null>(null);

  const exportPanels = async (device: Device) => {
    setProblem(null);
    const reply = await client.transport.call('getLayout', { params: { id: device.id } });
    const parsed = reply.ok ? parsePanels(reply.value) : undefined;
    if (!reply.ok || !parsed?.ok) {
      setProblem(reply.ok ? t('errors.10500') : failureText(reply.error));
      return;
    }
    saveFile(
      new Blob([serializePanels(parsed.value)], { type: 'application/json' }),
      'panels.json',
    );
  };

  return (
    <>
      <h1>
        <Message id="developer.title" />
      </h1>
      <p>
        <Message id="developer.intro" />
      </p>
      <Alert>{problem}</Alert>
      <DeviceTable
        caption={t('developer.title')}
        columns={[
          {
            key: 'channel',
            header: t('developer.channel'),
            label: t('developer.channel'),
            cell: (device) =>
              channelOf(device.firmware_version) === 'beta'
                ? t('developer.beta')
                : t('developer.stable'),
          },
          {
            key: 'export',
            header: <span className="xoss-visually-hidden">{t('developer.export')}</span>,
            cell: (device) => (
              <button
                type="button"
                className="xoss-button"
                aria-label={`${t('developer.export')}: ${device.model} ${device.serial}`}
                onClick={() => void exportPanels(device)}
              >
                <Message id="developer.export" />
              </button>
            ),
          },
        ]}
      />
    </>
  );
}
