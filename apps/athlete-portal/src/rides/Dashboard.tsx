import type { MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { EmptyState } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { api } from '../client.ts';
import { renderLink } from '../links.tsx';
import { TrainingLinks } from '../training/TrainingLinks.tsx';
import { useUnits } from '../units.ts';
import { Loaded, formatDate, formatDuration, useSportName } from '../components/common.tsx';

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** Monday of this week and 1 January, in UTC (the API filters by UTC dates). */
function periodStarts(now = new Date()) {
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return { week: isoDate(monday), year: `${now.getUTCFullYear()}-01-01` };
}

function Totals({ from, label }: { from: string; label: 'workouts.week' | 'workouts.year' }) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  // The server sums every workout of the period, however many there are.
  const query = api.useWorkoutTotalsQuery({ query: { from } });
  return (
    <section className="portal__card" aria-labelledby={`totals-${label}`}>
      <h2 id={`totals-${label}`}>{t(label)}</h2>
      <Loaded query={query}>
        {(totals) => {
          return (
            <dl className="portal__figures">
              <div>
                <dt>
                  <Message id="workouts.title" />
                </dt>
                <dd>{totals.count}</dd>
              </div>
              <div>
                <dt>
                  <Message id="measure.distance" />
                </dt>
                <dd>{units.distance(totals.distance_m)}</dd>
              </div>
              <div>
                <dt>
                  <Message id="measure.movingTime" />
                </dt>
                <dd>{formatDuration(totals.moving_time_s)}</dd>
              </div>
              <div>
                <dt>
                  <Message id="measure.elevationGain" />
                </dt>
                <dd>{units.elevation(totals.elevation_gain_m)}</dd>
              </div>
            </dl>
          );
        }}
      </Loaded>
    </section>
  );
}

/** Everything the signed-in rider can do, one click from the dashboard. */
const shortcuts: readonly { href: string; label: MessageId }[] = [
  { href: '/dashboard/workouts/list', label: 'workouts.import' },
  { href: '/upload/gpxFile', label: 'footer.uploadRoute' },
  { href: '/dashboard/workouts/shared', label: 'shared.title' },
  { href: '/download/maps', label: 'footer.navMaps' },
  { href: '/download/globalMaps', label: 'footer.sprintMaps' },
  { href: '/dashboard/device/list', label: 'devices.title' },
  { href: '/developer/mydevices/', label: 'developer.title' },
  { href: '/dashboard/settings', label: 'nav.settings' },
  { href: '/dashboard/settings/account', label: 'nav.account' },
];

/** `/dashboard/main`: totals, shortcuts, recent workouts, devices. */
export function Dashboard() {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const sport = useSportName();
  const recent = api.useListWorkoutsQuery({ query: { page_size: 5 } });
  const devices = api.useListDevicesQuery({});
  const starts = periodStarts();
  return (
    <>
      <h1>{t('nav.dashboard')}</h1>
      <div className="portal__grid">
        <Totals from={starts.week} label="workouts.week" />
        <Totals from={starts.year} label="workouts.year" />
      </div>
      <TrainingLinks />
      {/* A plain section: inside the app (embedded) the page shows no navigation landmark. */}
      <section aria-labelledby="shortcuts" className="portal__shortcuts">
        <h2 id="shortcuts">
          <Message id="dashboard.shortcuts" />
        </h2>
        <ul>
          {shortcuts.map((shortcut) => (
            <li key={shortcut.href} className="portal__link-row">
              {renderLink({ href: shortcut.href, current: false, children: t(shortcut.label) })}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="recent">
        <h2 id="recent">
          <Message id="workouts.recent" />
        </h2>
        <Loaded query={recent}>
          {(page) =>
            page.results.length === 0 ? (
              <EmptyState title={t('workouts.count', { count: 0 })}>
                <Message id="workouts.empty" />
              </EmptyState>
            ) : (
              <ul className="portal__list">
                {page.results.map((workout) => (
                  <li key={workout.id}>
                    <Link to={`/dashboard/workouts/share/${workout.id}`}>{workout.name}</Link>
                    <span>
                      {sport(workout.sport_type)} · {formatDate(workout.start_time, locale)} ·{' '}
                      {units.distance(workout.distance_m)}
                    </span>
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
        <p className="portal__link-row">
          <Link to="/dashboard/workouts/list">
            <Message id="workouts.all" />
          </Link>
        </p>
      </section>
      <section aria-labelledby="devices">
        <h2 id="devices">
          <Message id="devices.title" />
        </h2>
        <Loaded query={devices}>
          {(page) => (
            <ul className="portal__list">
              {page.results.map((device, index) => (
                <li key={device.id}>
                  <Link to={`/dashboard/device/list/settings/${index}`}>{device.model}</Link>
                  <span>{device.serial}</span>
                </li>
              ))}
            </ul>
          )}
        </Loaded>
      </section>
    </>
  );
}
