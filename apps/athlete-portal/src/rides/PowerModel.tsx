import { useState } from 'react';
import type { PowerModelReply } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { api } from '../client.ts';
import { Loaded } from '../components/common.tsx';

type ModelWindow = PowerModelReply['window'];
const WINDOWS: readonly ModelWindow[] = ['42d', 'season', 'all'];

/** The rider's power model over the window they chose (the last 42 days at first). */
export function useModel() {
  const [window, setWindow] = useState<ModelWindow>('42d');
  const query = api.usePowerModelQuery({ query: { window } });
  return { window, setWindow, query, data: query.data };
}

type Model = ReturnType<typeof useModel>;

/**
 * Morton's 3-parameter model at each duration: P(t) = CP + W' / (t + W' / (Pmax − CP)),
 * Pmax at 0 s and falling towards CP. Empty without a fitted model.
 */
export function modelCurve(
  model: Pick<PowerModelReply, 'cp_w' | 'w_prime_j' | 'pmax_w'> | undefined,
  durations: readonly number[],
): number[] {
  if (!model || model.cp_w === null || model.w_prime_j === null || model.pmax_w === null) return [];
  const { cp_w: cp, w_prime_j: wPrime, pmax_w: pmax } = model;
  if (pmax <= cp || wPrime <= 0) return [];
  return durations.map((seconds) => cp + wPrime / (seconds + wPrime / (pmax - cp)));
}

/** The model's figures (CP, W', Pmax, eFTP) with the window switch, or why there are none. */
export function ModelSection({ model }: { model: Model }) {
  const t = useT();
  const locale = useLocale();
  const kilo = new Intl.NumberFormat(locale, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
  const watts = (value: number | null) => (value === null ? '—' : `${Math.round(value)}\u00a0W`);
  return (
    <section className="portal__card" aria-labelledby="power-model">
      <h2 id="power-model">{t('workouts.model.title')}</h2>
      <label className="portal__inline">
        <Message id="workouts.model.window" />
        <select
          className="xoss-select"
          value={model.window}
          onChange={(event) => model.setWindow(event.target.value as ModelWindow)}
        >
          {WINDOWS.map((value) => (
            <option key={value} value={value}>
              {t(`workouts.model.window.${value}`)}
            </option>
          ))}
        </select>
      </label>
      <Loaded query={model.query}>
        {(data) =>
          data.cp_w === null ? (
            <p data-testid="model-reason">
              {t('workouts.model.reason', { reason: data.reason ?? 'too_little_data' })}
            </p>
          ) : (
            <dl className="portal__figures" data-testid="model-figures">
              <div>
                <dt>{t('workouts.model.cp')}</dt>
                <dd>{watts(data.cp_w)}</dd>
              </div>
              <div>
                <dt>{t('workouts.model.wPrime')}</dt>
                <dd>
                  {data.w_prime_j === null ? '—' : `${kilo.format(data.w_prime_j / 1000)}\u00a0kJ`}
                </dd>
              </div>
              <div>
                <dt>{t('workouts.model.pmax')}</dt>
                <dd>{watts(data.pmax_w)}</dd>
              </div>
              <div>
                <dt>{t('workouts.model.eftp')}</dt>
                <dd>{watts(data.eftp_w)}</dd>
              </div>
            </dl>
          )
        }
      </Loaded>
    </section>
  );
}

/** CP and W' of the 42-day model at the end of each of the last 12 months. */
export function ModelHistory() {
  const t = useT();
  const locale = useLocale();
  const history = api.usePowerModelHistoryQuery({ query: { months: 12 } });
  const month = new Intl.DateTimeFormat(locale, {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const kilo = new Intl.NumberFormat(locale, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
  const points = (history.data?.points ?? []).filter((point) => point.cp_w !== null);
  if (points.length === 0) return null;
  return (
    <section className="portal__card" aria-labelledby="model-history">
      <table className="xoss-table" data-stack>
        <caption id="model-history">{t('workouts.model.history')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('workouts.model.month')}</th>
            <th scope="col">{t('workouts.model.cp')}</th>
            <th scope="col">{t('workouts.model.wPrime')}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.date}>
              <th scope="row">{month.format(new Date(`${point.date.slice(0, 10)}T00:00:00Z`))}</th>
              <td data-label={t('workouts.model.cp')}>{`${Math.round(point.cp_w!)}\u00a0W`}</td>
              <td data-label={t('workouts.model.wPrime')}>
                {point.w_prime_j === null ? '—' : `${kilo.format(point.w_prime_j / 1000)}\u00a0kJ`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
