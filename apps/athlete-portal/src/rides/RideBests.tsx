import type { Effort } from '@xoss/api-contract';
import { useLocale, useT } from '@xoss/i18n/react';
import { Link } from 'react-router';
import { api, client } from '../client.ts';
import { formatDuration } from '../components/common.tsx';

export const POWER_EFFORTS: readonly Effort[] = [
  'power_5s',
  'power_60s',
  'power_300s',
  'power_1200s',
  'power_3600s',
  'run_power_60s',
  'run_power_300s',
  'run_power_1200s',
];

/** An effort's value as riders read it: watts (and W/kg with a weight), or a time. */
export function useEffortValue(weightKg: number | null | undefined) {
  const t = useT();
  const number = new Intl.NumberFormat(useLocale(), { maximumFractionDigits: 1 });
  return (effort: Effort, value: number) =>
    POWER_EFFORTS.includes(effort)
      ? `${Math.round(value)} W${
          weightKg ? ` (${t('training.ftp.wkg', { value: number.format(value / weightKg) })})` : ''
        }`
      : formatDuration(value);
}

/**
 * On the owner's ride page, after its figures, map and charts: every best effort of the ride
 * with its rank in its year and of all time, then the ones in a top 3 called out ("2nd best
 * 5 min of 2026") and the FTP the ride suggests when it beats the one in force.
 */
export function RideBests({ id }: { id: number }) {
  const t = useT();
  const bests = api.useWorkoutBestsQuery({ params: { id } });
  const userId = Number(client.session.userId() ?? 0);
  const athlete = api.useGetAthleteQuery({ params: { id: userId } }, { skip: userId === 0 });
  const valueOf = useEffortValue(athlete.data?.settings.weight_kg);
  const data = bests.data;
  if (!data || (data.efforts.length === 0 && data.ftp_suggestion === null)) return null;
  const nameOf = (effort: Effort) => t(`training.effort.${effort}`);
  const marks = data.efforts.flatMap((effort) => {
    const scope =
      effort.all_time_rank <= 3
        ? ({ scope: 'all', rank: effort.all_time_rank } as const)
        : effort.year_rank <= 3
          ? ({ scope: 'year', rank: effort.year_rank } as const)
          : undefined;
    if (!scope) return [];
    return [
      {
        effort: effort.effort,
        text: t('training.rideBest', { ...scope, effort: nameOf(effort.effort), year: data.year }),
      },
    ];
  });
  return (
    <section className="portal__card" aria-labelledby="ride-bests">
      <h2 id="ride-bests">{t('training.rideBests')}</h2>
      {data.efforts.length > 0 ? (
        // Named by the section's heading: a caption would repeat it right under it.
        <table className="xoss-table" data-stack aria-labelledby="ride-bests">
          <thead>
            <tr>
              <th scope="col">{t('training.effort')}</th>
              <th scope="col">{t('training.bests')}</th>
              <th scope="col">{t('training.rankYear', { year: data.year })}</th>
              <th scope="col">{t('training.rankAllTime')}</th>
            </tr>
          </thead>
          <tbody>
            {data.efforts.map((effort) => (
              <tr key={effort.effort}>
                <th scope="row">
                  {t(
                    POWER_EFFORTS.includes(effort.effort)
                      ? 'training.bestPower'
                      : 'training.fastestTime',
                  )}{' '}
                  {nameOf(effort.effort)}
                </th>
                <td data-label={t('training.bests')}>{valueOf(effort.effort, effort.value)}</td>
                <td data-label={t('training.rankYear', { year: data.year })}>{effort.year_rank}</td>
                <td data-label={t('training.rankAllTime')}>{effort.all_time_rank}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {marks.length > 0 ? (
        <ul className="portal__list" data-testid="ride-best-marks">
          {marks.map((mark) => (
            <li key={mark.effort}>
              <Link to="/dashboard/training/bests">{mark.text}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      {data.ftp_suggestion !== null ? (
        <p>
          {t('training.ftp.rideSuggestion', { watts: data.ftp_suggestion })}{' '}
          <Link to="/dashboard/training/bests">{t('training.ftp.title')}</Link>
        </p>
      ) : null}
    </section>
  );
}
