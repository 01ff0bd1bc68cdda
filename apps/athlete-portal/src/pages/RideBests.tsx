import type { MessageId } from '@xoss/i18n';
import { useT } from '@xoss/i18n/react';
import { Link } from 'react-router';
import { api } from '../client.ts';

/** On the owner's ride page: the ride's efforts that rank in the top 3 of its year or of all time. */
export function RideBests({ id }: { id: number }) {
  const t = useT();
  const bests = api.useWorkoutBestsQuery({ params: { id } });
  const data = bests.data;
  if (!data) return null;
  const marks = data.efforts.flatMap((effort) => {
    const name = t(`training.effort.${effort.effort}` as MessageId);
    if (effort.all_time_rank <= 3)
      return [
        {
          effort,
          text: t('training.rideBest', {
            rank: effort.all_time_rank,
            effort: name,
            scope: 'all',
            year: data.year,
          }),
        },
      ];
    if (effort.year_rank <= 3)
      return [
        {
          effort,
          text: t('training.rideBest', {
            rank: effort.year_rank,
            effort: name,
            scope: 'year',
            year: data.year,
          }),
        },
      ];
    return [];
  });
  if (marks.length === 0 && data.ftp_suggestion === null) return null;
  return (
    <section className="portal__card" aria-labelledby="ride-bests">
      <h2 id="ride-bests">{t('training.bests')}</h2>
      <ul className="portal__list" data-testid="ride-bests">
        {marks.map(({ effort, text }) => (
          <li key={effort.effort}>
            <Link to="/dashboard/training/bests">{text}</Link>
          </li>
        ))}
      </ul>
      {data.ftp_suggestion !== null ? (
        <p>
          {t('training.ftp.rideSuggestion', { watts: data.ftp_suggestion })}{' '}
          <Link to="/dashboard/training/bests">{t('training.ftp.title')}</Link>
        </p>
      ) : null}
    </section>
  );
}
