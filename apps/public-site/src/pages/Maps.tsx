import { use, useState } from 'react';
import type { MapRegion as ApiRegion } from '@xoss/api-contract';
import type { MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import {
  Alert,
  DownloadTable,
  EmptyState,
  RegionPicker,
  formatBytes,
  importEstimate,
  importMinutes,
  type MapRegion,
} from '@xoss/ui-kit';
import { Link } from 'react-router';
import { track } from '../navigation.ts';
import { AppLink, Steps } from './Steps.tsx';
import { client } from '../client.ts';
import { TILE_URL } from '../config.ts';

const regionCache = new Map<string, { at: number; regions: Promise<ApiRegion[] | null> }>();

/**
 * A model's regions for the map pages, read once a minute at most: the page suspends until
 * they are there (the progress bar shows), and a failure shows the page's own message.
 */
function useRegions(model: 'NAV+' | 'SPRINT'): ApiRegion[] | null {
  let entry = regionCache.get(model);
  if (!entry || Date.now() - entry.at > 60_000) {
    entry = {
      at: Date.now(),
      regions: track(
        client.transport
          .call('mapRegions', { query: { model } })
          .then((reply) => (reply.ok ? reply.value : null)),
      ),
    };
    regionCache.set(model, entry);
  }
  return use(entry.regions);
}

const downloadHref = (region: ApiRegion) => `/api/v2/maps/regions/${region.id}/download/`;

function useBytes() {
  const locale = useLocale();
  return (bytes: number) => formatBytes(bytes, locale);
}

const sprintSteps: readonly MessageId[] = [
  'download.sprint.step1',
  'download.sprint.step2',
  'download.sprint.step3',
  'download.sprint.step4',
];

function RegionsUnavailable() {
  return <EmptyState title={<Message id="errors.10503" />} />;
}

/** `/download/globalMaps`: SPRINT's map per region, with the USB import steps. */
export function GlobalMaps() {
  const t = useT();
  const bytes = useBytes();
  const regions = useRegions('SPRINT');
  return (
    <>
      <h1>
        <Message id="download.globalMaps.title" />
      </h1>
      <p>
        <Message id="download.globalMaps.intro" />{' '}
        <Link to="/download/globalMapsRegion">
          <Message id="maps.selectArea" />
        </Link>
      </p>
      {regions ? (
        <DownloadTable
          caption={t('download.chooseRegion')}
          rows={regions.map((region) => ({
            name: region.name,
            href: downloadHref(region),
            size: t('download.sizeTime', {
              size: bytes(region.size_bytes),
              minutes: importMinutes(region.import_seconds),
            }),
          }))}
        />
      ) : (
        <RegionsUnavailable />
      )}
      <p>
        <Message id="maps.oneRegion" />
      </p>
      <Steps title="download.usbSteps" steps={sprintSteps} />
      <AppLink />
    </>
  );
}

/**
 * A region picker with its download: the NAV+ page (many areas, the 3.6 GB limit, the
 * import-time estimate) and SPRINT's region page (`globalMapsRegion`).
 */
function PickAndDownload({ regions, maxBytes }: { regions: ApiRegion[]; maxBytes?: number }) {
  const t = useT();
  const [selected, setSelected] = useState<string[]>([]);
  const [problem, setProblem] = useState<MessageId | null>(null);
  const [ready, setReady] = useState<ApiRegion[]>([]);
  const picked = regions.filter((region) => selected.includes(String(region.id)));
  const seconds = picked.reduce((sum, region) => sum + region.import_seconds, 0);
  const total = picked.reduce((sum, region) => sum + region.size_bytes, 0);
  const forPicker: MapRegion[] = regions.map((region) => ({
    id: String(region.id),
    name: region.name,
    bbox: region.bbox,
    bytes: region.size_bytes,
  }));
  return (
    <>
      <RegionPicker
        regions={forPicker}
        value={selected}
        onChange={(ids) => {
          setSelected(ids);
          setProblem(null);
          setReady([]);
        }}
        tileUrl={TILE_URL}
        {...(maxBytes ? { maxBytes } : {})}
      />
      <p aria-live="polite">
        {picked.length > 0 ? t('maps.estimate', importEstimate(seconds)) : null}
      </p>
      <p className="site__actions">
        <button
          type="button"
          className="xoss-button"
          data-variant="primary"
          onClick={() => {
            if (picked.length === 0) return setProblem('errors.noRegion');
            if (maxBytes && total > maxBytes) return setProblem('maps.overLimit');
            setProblem(null);
            setReady(picked);
          }}
        >
          <Message id="maps.download" />
        </button>
      </p>
      {problem ? <Alert>{t(problem)}</Alert> : null}
      {ready.length > 0 ? (
        <ul className="site__downloads">
          {ready.map((region) => (
            <li key={region.id}>
              <a href={downloadHref(region)} download>
                {t('downloads.downloadName', { name: region.name })}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** `/download/globalMapsRegion`: choose SPRINT regions on the map. */
export function GlobalMapsRegion() {
  const regions = useRegions('SPRINT');
  return (
    <>
      <h1>
        <Message id="download.chooseRegion" />
      </h1>
      <p>
        <Message id="maps.oneRegion" />
      </p>
      {regions ? <PickAndDownload regions={regions} /> : <RegionsUnavailable />}
      <Steps title="download.usbSteps" steps={sprintSteps} />
      <AppLink />
    </>
  );
}

/** `/download/maps`: NAV+ maps, under about 3.6 GB in all (spec 5, 9). */
export function NavMaps() {
  const regions = useRegions('NAV+');
  return (
    <>
      <h1>
        <Message id="download.nav.title" />
      </h1>
      <p>
        <Message id="download.nav.intro" />
      </p>
      <p>
        <Message id="maps.limit" />
      </p>
      {regions ? <PickAndDownload regions={regions} maxBytes={3.6e9} /> : <RegionsUnavailable />}
      <aside className="site__notice">
        <p>
          <Message id="download.terms" />
        </p>
        <p>
          <Message id="maps.risk" />
        </p>
      </aside>
      <Steps
        title="download.windows"
        steps={['download.win.step1', 'download.win.step2', 'download.win.step3']}
      />
      <Steps
        title="download.mac"
        steps={['download.mac.step1', 'download.mac.step2', 'download.mac.step3']}
      />
      <AppLink />
    </>
  );
}
