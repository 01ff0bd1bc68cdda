import type { ReactNode } from 'react';
import { Message, useT } from '@xoss/i18n/react';

// The product pages' tables, apart from the cards so a home page's first load need not carry
// them.

export interface SpecRow {
  readonly label: ReactNode;
  readonly value: ReactNode;
}

/**
 * A product's specification table (spec 9's figures): a caption and label/value rows. On a
 * phone each row stacks, label above value, so a long word (German "Betriebstemperatur")
 * never has to fit 40 % of 360 px.
 */
export function SpecTable({
  caption,
  rows,
}: {
  readonly caption: ReactNode;
  readonly rows: readonly SpecRow[];
}) {
  return (
    <table className="xoss-table xoss-root" data-stack>
      <caption>{caption}</caption>
      <tbody>
        {rows.map((row, index) => (
          <tr key={index}>
            <th scope="row">{row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface DownloadRow {
  readonly name: string;
  readonly href: string;
  /** Language of the file, as its speakers write it. */
  readonly language?: string;
  readonly size?: string;
  readonly version?: string;
}

/** Manuals, apps or map packages to download: name, language, version, size, link. */
export function DownloadTable({
  caption,
  rows,
}: {
  readonly caption: ReactNode;
  readonly rows: readonly DownloadRow[];
}) {
  const t = useT();
  const has = (key: 'language' | 'size' | 'version') => rows.some((row) => row[key]);
  return (
    <table className="xoss-table xoss-root" data-stack>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">
            <Message id="downloads.file" />
          </th>
          {has('language') ? (
            <th scope="col">
              <Message id="downloads.language" />
            </th>
          ) : null}
          {has('version') ? (
            <th scope="col">
              <Message id="downloads.version" />
            </th>
          ) : null}
          {has('size') ? (
            <th scope="col">
              <Message id="downloads.size" />
            </th>
          ) : null}
          <th scope="col">
            <span className="xoss-visually-hidden">
              <Message id="common.download" />
            </span>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.href}>
            <td>{row.name}</td>
            {has('language') ? (
              <td data-label={t('downloads.language')}>{row.language ?? '—'}</td>
            ) : null}
            {has('version') ? (
              <td data-label={t('downloads.version')}>{row.version ?? '—'}</td>
            ) : null}
            {has('size') ? <td data-label={t('downloads.size')}>{row.size ?? '—'}</td> : null}
            <td>
              <a
                className="xoss-button"
                href={row.href}
                download
                aria-label={t('downloads.downloadName', { name: row.name })}
              >
                <Message id="common.download" />
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
