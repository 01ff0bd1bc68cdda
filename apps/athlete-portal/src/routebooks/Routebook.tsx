import { useEffect, useId, useMemo, useState } from 'react';
import { parseGpx, type GpxRoute } from '@xoss/activity-files';
import type { Device, Routebook } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import {
  Alert,
  EmptyState,
  Loading,
  RouteMap,
  StreamCharts,
  SubmitButton,
  chartColors,
  type LonLat,
  type StreamSeries,
} from '@xoss/ui-kit';
import { haversineMetres } from '@xoss/workout-stats';
import { Link, useNavigate, useParams } from 'react-router';
import { api, client } from '../client.ts';
import { TILE_URL } from '../config.ts';
import { useUnits } from '../units.ts';
import {
  Loaded,
  formText,
  formatDate,
  saveFile,
  useFailureText,
  useToast,
} from '../components/common.tsx';
import { ManageSection } from '../components/ManageSection.tsx';

/** Where the rider's routebooks are listed: the upload page. */
const ROUTEBOOKS_PATH = '/upload/gpxFile';

/** A file name from a routebook's title: letters, digits, spaces and dashes, never empty. */
const fileNameOf = (title: string) =>
  `${title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || 'route'}.gpx`;

/** The route's points along the way: the map's line, and metres and elevation for the profile. */
function alongTheRoute(route: GpxRoute) {
  const { latitude, longitude, elevation, length } = route.points;
  const track: LonLat[] = [];
  const metres = new Float64Array(length);
  let total = 0;
  for (let i = 0; i < length; i++) {
    if (i > 0)
      total += haversineMetres(latitude[i - 1]!, longitude[i - 1]!, latitude[i]!, longitude[i]!);
    metres[i] = total;
    track.push([longitude[i]!, latitude[i]!]);
  }
  return { track, metres, elevation };
}

/**
 * The routebook's own GPX, read in the browser with the parser the upload used: the whole
 * line for the map and the elevations for the profile (the list's preview is simplified
 * and has no heights).
 */
function useRouteFile(id: number) {
  const [state, setState] = useState<
    { id: number; route: GpxRoute } | { id: number; error: unknown } | null
  >(null);
  useEffect(() => {
    const controller = new AbortController();
    void client
      .download('routebookGpx', { params: { id } }, { signal: controller.signal })
      .then(async (reply) => {
        if (controller.signal.aborted) return;
        if (!reply.ok) {
          setState({ id, error: reply.error });
          return;
        }
        const parsed = parseGpx(new Uint8Array(await reply.value.arrayBuffer()));
        if (controller.signal.aborted) return;
        setState(parsed.ok ? { id, route: parsed.value } : { id, error: parsed.error });
      });
    return () => controller.abort();
  }, [id]);
  return state?.id === id ? state : null;
}

/**
 * `/dashboard/routebooks/{id}`: one routebook on the map with its elevation profile, its
 * figures, and what a rider does with it: rename, send to one of their devices (the XOSS app
 * copies it over at its next sync), download the GPX, delete (after Confirm).
 */
export function RoutebookPage() {
  const id = Number(useParams().id);
  const book = api.useGetRoutebookQuery({ params: { id } }, { skip: !(id > 0) });
  if (!(id > 0))
    return (
      <EmptyState title={<Message id="errors.10404" />}>
        <Link to={ROUTEBOOKS_PATH}>
          <Message id="upload.list" />
        </Link>
      </EmptyState>
    );
  return <Loaded query={book}>{(routebook) => <RoutebookView book={routebook} />}</Loaded>;
}

function RoutebookView({ book }: { book: Routebook }) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const file = useRouteFile(book.id);
  const [hover, setHover] = useState<number | null>(null);
  const line = useMemo(() => (file && 'route' in file ? alongTheRoute(file.route) : null), [file]);
  const series: StreamSeries[] = useMemo(
    () =>
      line
        ? [
            {
              id: 'elevation',
              label: t('measure.elevation'),
              unit: units.elevationUnit,
              kind: 'area',
              color: chartColors.elevation,
              values: Array.from(line.elevation, (value) =>
                Number.isFinite(value) ? value * units.elevationFactor : null,
              ),
            },
          ]
        : [],
    [line, t, units.elevationUnit, units.elevationFactor],
  );
  return (
    <>
      <p>
        <Link to={ROUTEBOOKS_PATH}>
          <Message id="routebooks.back" />
        </Link>
      </p>
      <h1>{book.title}</h1>
      {book.description ? <p className="portal__ride-notes">{book.description}</p> : null}
      <dl className="portal__figures">
        <div>
          <dt>
            <Message id="measure.distance" />
          </dt>
          <dd>{units.distance(book.distance_m)}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.elevationGain" />
          </dt>
          <dd>{units.elevation(book.elevation_gain_m)}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.elevationLoss" />
          </dt>
          <dd>{units.elevation(book.elevation_loss_m)}</dd>
        </div>
        <div>
          <dt>
            <Message id="routebooks.uploaded" />
          </dt>
          <dd>{formatDate(book.created_at, locale)}</dd>
        </div>
      </dl>
      {file === null ? (
        <Loading />
      ) : line ? (
        <section aria-label={t('routebooks.profile')}>
          <RouteMap track={line.track} marker={hover} tileUrl={TILE_URL} />
          <h2>
            <Message id="routebooks.profile" />
          </h2>
          <StreamCharts
            x={line.metres}
            xKind="distance"
            distanceUnit={units.miles ? 'mi' : 'km'}
            series={series}
            hoverIndex={hover}
            onHover={setHover}
          />
        </section>
      ) : (
        <Alert>{t('routebooks.fileMissing')}</Alert>
      )}
      <SendToDevice book={book} />
      <RoutebookManagement book={book} />
    </>
  );
}

/** Which of the rider's devices it was sent to, and "Send to device" for one of them. */
function SendToDevice({ book }: { book: Routebook }) {
  const t = useT();
  const toast = useToast();
  const locale = useLocale();
  const failureText = useFailureText();
  const devices = api.useListDevicesQuery({ query: { page_size: 100 } });
  const [send, sending] = api.useSendRoutebookMutation();
  const selectId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const nameOf = (list: readonly Device[], deviceId: number) => {
    const device = list.find((each) => each.id === deviceId);
    return device ? `${device.model} (${device.serial})` : `#${deviceId}`;
  };
  const submit = async (form: FormData, list: readonly Device[]) => {
    const deviceId = Number(formText(form, 'device'));
    const result = await send({ params: { id: book.id }, body: { device_id: deviceId } });
    if ('error' in result) {
      setProblem(failureText(result.error));
      return;
    }
    setProblem(null);
    toast(t('routebooks.sent', { device: nameOf(list, deviceId) }));
  };
  return (
    <section aria-labelledby="send-to-device">
      <h2 id="send-to-device">
        <Message id="routebooks.send" />
      </h2>
      <Loaded query={devices}>
        {(page) =>
          page.results.length === 0 ? (
            <p>
              <Message id="routebooks.noDevices" />{' '}
              <Link to="/dashboard/device/add">
                <Message id="devices.add" />
              </Link>
            </p>
          ) : (
            <>
              {book.devices.length > 0 ? (
                <ul className="portal__list" aria-label={t('routebooks.sentTo')}>
                  {book.devices.map((sent) => (
                    <li key={sent.device_id}>
                      <span>{nameOf(page.results, sent.device_id)}</span>
                      <span>
                        {sent.synced_at
                          ? t('routebooks.synced', { date: formatDate(sent.synced_at, locale) })
                          : t('routebooks.waiting')}
                      </span>
                    </li>
                  ))}
                </ul>
              ) : null}
              <p className="portal__note">
                <Message id="routebooks.sendNote" />
              </p>
              <form
                className="portal__inline"
                onSubmit={(event) => {
                  event.preventDefault();
                  void submit(new FormData(event.currentTarget), page.results);
                }}
              >
                <label htmlFor={selectId}>
                  <Message id="routebooks.device" />
                </label>
                <select id={selectId} className="xoss-select" name="device">
                  {page.results.map((device) => (
                    <option key={device.id} value={device.id}>
                      {device.model} ({device.serial})
                    </option>
                  ))}
                </select>
                <SubmitButton busy={sending.isLoading}>
                  <Message id="routebooks.sendSubmit" />
                </SubmitButton>
              </form>
            </>
          )
        }
      </Loaded>
      <Alert>{problem}</Alert>
    </section>
  );
}

/** Rename (title and description), download the GPX, delete after Confirm. */
function RoutebookManagement({ book }: { book: Routebook }) {
  const t = useT();
  const toast = useToast();
  const failureText = useFailureText();
  const navigate = useNavigate();
  const [patch, patching] = api.usePatchRoutebookMutation();
  const [remove, removing] = api.useDeleteRoutebookMutation();

  const save = async (form: FormData) => {
    const title = formText(form, 'title').trim();
    if (!title) return t('toast.checkRequired');
    const result = await patch({
      params: { id: book.id },
      body: { title, description: formText(form, 'description').trim() },
    });
    if ('error' in result) return failureText(result.error, { withDetail: true });
    toast(t('toast.saveSuccess'));
    return null;
  };

  const download = async () => {
    const reply = await client.download('routebookGpx', { params: { id: book.id } });
    if (!reply.ok) return failureText(reply.error);
    saveFile(reply.value, fileNameOf(book.title));
    return null;
  };

  const deleteBook = async () => {
    const result = await remove({ params: { id: book.id } });
    if ('error' in result) return failureText(result.error);
    toast(t('routebooks.deleted', { name: book.title }));
    await navigate(ROUTEBOOKS_PATH, { replace: true });
    return null;
  };

  return (
    <ManageSection
      label={t('routebooks.manage')}
      editLabel={<Message id="routebooks.rename" />}
      downloadLabel={<Message id="routebooks.download" />}
      deleteLabel={<Message id="routebooks.delete" />}
      confirmMessage={t('routebooks.deleteConfirm', { name: book.title })}
      noValidate
      saving={patching.isLoading}
      deleting={removing.isLoading}
      onSave={save}
      onDownload={download}
      onDelete={deleteBook}
      keptId="routebook-edit"
      fields={(value) => (
        <>
          <label>
            <Message id="upload.routeTitle" />
            <input
              className="xoss-select"
              name="title"
              required
              maxLength={120}
              defaultValue={value('title', book.title)}
            />
          </label>
          <label>
            <Message id="upload.description" />
            <textarea
              className="xoss-select"
              name="description"
              rows={3}
              maxLength={2000}
              defaultValue={value('description', book.description)}
            />
          </label>
        </>
      )}
    />
  );
}
