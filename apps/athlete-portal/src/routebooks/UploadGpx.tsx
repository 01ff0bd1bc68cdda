import { useId, useState } from 'react';
import { parseGpx, type GpxRoute } from '@xoss/activity-files';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Alert, EmptyState, RouteMap, SubmitButton, type LonLat } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { api } from '../client.ts';
import { TILE_URL } from '../config.ts';
import { useUnits } from '../units.ts';
import { Loaded, formText, formatDate, useFailureText } from '../components/common.tsx';

/** Where a ride is imported: what a FIT file picked here was meant for. */
const RIDES_PATH = '/dashboard/workouts/list';
/** One routebook's page (its own chunk: the profile chart loads only there). */
const routebookPath = (id: number) => `/dashboard/routebooks/${id}`;

/**
 * What the file's first bytes say it is, before it is read as GPX: a FIT file carries
 * ".FIT" at byte 8 of its header; any other file with a NUL byte early on is binary (a zip,
 * a gzip, a picture), never the text a GPX is. Either way the parser's "not UTF-8 text"
 * would not tell a rider what to do.
 */
export function sniffFile(head: Uint8Array): 'fit' | 'binary' | 'text' {
  const fit = [0x2e, 0x46, 0x49, 0x54];
  if (head.length >= 12 && fit.every((byte, i) => head[8 + i] === byte)) return 'fit';
  return head.includes(0) ? 'binary' : 'text';
}

/**
 * `/upload/gpxFile` (spec 4): select a GPX file, see the route on the map, give it a title
 * (required) and a description, upload; then SUCCESS, asking the rider to open the app.
 * The file is read in the browser with the same parser the server re-checks it with.
 */
export function UploadGpx() {
  const t = useT();
  const failureText = useFailureText();
  const locale = useLocale();
  const units = useUnits(locale);
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [route, setRoute] = useState<GpxRoute | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Why the chosen file was refused: Upload says that again, not "check required fields".
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  // A FIT or other binary file picked here: said plainly, with the way to the rides page.
  const [wrongKind, setWrongKind] = useState<'fit' | 'binary' | null>(null);
  const [done, setDone] = useState(false);
  const [upload, uploading] = api.useUploadRoutebookMutation();
  const list = api.useListRoutebooksQuery({});

  const choose = async (chosen: File) => {
    setDone(false);
    setProblem(null);
    setFileProblem(null);
    setWrongKind(null);
    const kind = sniffFile(new Uint8Array(await chosen.slice(0, 512).arrayBuffer()));
    if (kind !== 'text') {
      setFile(null);
      setRoute(null);
      setWrongKind(kind);
      setFileProblem(t(kind === 'fit' ? 'routebooks.notGpxFit' : 'routebooks.notGpxBinary'));
      return;
    }
    const parsed = parseGpx(new Uint8Array(await chosen.arrayBuffer()));
    if (!parsed.ok) {
      setFile(null);
      setRoute(null);
      const why = t('errors.10415', { reason: t(parsed.error.messageId) });
      setProblem(why);
      setFileProblem(why);
      return;
    }
    setFile(chosen);
    setRoute(parsed.value);
  };
  const submit = async (form: FormData) => {
    const title = formText(form, 'title').trim();
    if (!file && fileProblem) {
      if (!wrongKind) setProblem(fileProblem);
      return;
    }
    if (!file || !title) {
      setProblem(t('toast.checkRequired'));
      return;
    }
    const body = new FormData();
    body.set('file', file);
    body.set('title', title);
    body.set('description', formText(form, 'description').trim());
    const result = await upload({ body });
    if ('error' in result) {
      setProblem(failureText(result.error, { limit: '16 MB', withDetail: true }));
      return;
    }
    setProblem(null);
    setDone(true);
    setFile(null);
    setRoute(null);
  };
  const track: LonLat[] = route
    ? Array.from(
        route.preview,
        (index) => [route.points.longitude[index]!, route.points.latitude[index]!] as const,
      )
    : [];

  return (
    <>
      <h1>
        <Message id="upload.title" />
      </h1>
      {done ? (
        <section className="portal__card" role="status">
          <h2>
            <Message id="upload.success" />
          </h2>
          <p>
            <Message id="upload.openApp" />
          </p>
          <button type="button" className="xoss-button" onClick={() => setDone(false)}>
            <Message id="upload.another" />
          </button>
        </section>
      ) : (
        <form
          className="portal__form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submit(new FormData(event.currentTarget));
          }}
        >
          <label htmlFor={inputId} className="xoss-button">
            <Message id="upload.select" />
          </label>
          <input
            id={inputId}
            type="file"
            accept=".gpx,application/gpx+xml"
            className="xoss-visually-hidden"
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              event.target.value = '';
              if (chosen) void choose(chosen);
            }}
          />
          {route && file ? (
            <>
              <p>
                {file.name} · {units.distance(route.distanceM)} ·{' '}
                {t('upload.points', { count: route.points.length })}
              </p>
              <RouteMap track={track} tileUrl={TILE_URL} />
            </>
          ) : null}
          <label>
            <Message id="upload.routeTitle" />
            <input
              className="xoss-select"
              name="title"
              required
              maxLength={120}
              defaultValue={route?.name ?? ''}
              key={route?.name ?? 'empty'}
            />
          </label>
          <label>
            <Message id="upload.description" />
            <textarea className="xoss-select" name="description" rows={3} maxLength={2000} />
          </label>
          {wrongKind ? (
            <Alert>
              {fileProblem}{' '}
              <Link to={RIDES_PATH}>
                <Message id="routebooks.toRides" />
              </Link>
            </Alert>
          ) : null}
          <Alert>{problem}</Alert>
          <SubmitButton busy={uploading.isLoading}>
            <Message id="upload.submit" />
          </SubmitButton>
        </form>
      )}
      <section aria-labelledby="routebooks">
        <h2 id="routebooks">
          <Message id="upload.list" />
        </h2>
        <Loaded query={list}>
          {(page) =>
            page.results.length === 0 ? (
              <EmptyState />
            ) : (
              <ul className="portal__list">
                {page.results.map((book) => (
                  <li key={book.id}>
                    <Link to={routebookPath(book.id)}>{book.title}</Link>
                    <span>
                      {t('routebooks.summary', {
                        distance: units.distance(book.distance_m),
                        gain: units.elevation(book.elevation_gain_m),
                        date: formatDate(book.created_at, locale),
                      })}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
    </>
  );
}
