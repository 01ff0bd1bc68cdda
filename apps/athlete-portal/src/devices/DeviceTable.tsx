import type { ReactNode } from 'react';
import type { Device } from '@xoss/api-contract';
import { Message, useT } from '@xoss/i18n/react';
import { EmptyState } from '@xoss/ui-kit';
import { api } from '../client.ts';
import { Loaded, useModelName } from '../components/common.tsx';

/** A column after model, serial and firmware: its header and each device's cell. */
export interface DeviceColumn {
  readonly key: string;
  readonly header: ReactNode;
  /** The column's name in front of each cell when the table stacks on a phone. */
  readonly label?: string;
  readonly cell: (device: Device, index: number) => ReactNode;
}

/**
 * The rider's devices as a table: model (the row header), serial and firmware version,
 * then the page's own columns; the empty state when there are none.
 */
export function DeviceTable({
  caption,
  columns,
}: {
  caption: string;
  columns: readonly DeviceColumn[];
}) {
  const t = useT();
  const modelName = useModelName();
  const devices = api.useListDevicesQuery({});
  return (
    <Loaded query={devices}>
      {(page) =>
        page.results.length === 0 ? (
          <EmptyState>
            <Message id="devices.empty" />
          </EmptyState>
        ) : (
          <table className="xoss-table" data-stack>
            <caption className="xoss-visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{t('devices.model')}</th>
                <th scope="col">{t('devices.serial')}</th>
                <th scope="col">{t('devices.firmware')}</th>
                {columns.map((column) => (
                  <th key={column.key} scope="col">
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {page.results.map((device, index) => (
                <tr key={device.id}>
                  <th scope="row">{modelName(device.model)}</th>
                  <td data-label={t('devices.serial')}>{device.serial}</td>
                  <td data-label={t('devices.firmware')}>{device.firmware_version}</td>
                  {columns.map((column) => (
                    <td key={column.key} data-label={column.label ?? undefined}>
                      {column.cell(device, index)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Loaded>
  );
}
