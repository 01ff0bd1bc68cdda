import { useState } from 'react';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { ConfirmDialog, EmptyState } from '@xoss/ui-kit';
import { Link } from 'react-router';
import { api } from '../client.ts';
import { Loaded, Pager, formatDate, useToast } from '../components/common.tsx';

const PAGE_SIZE = 50;

/**
 * `/dashboard/workouts/shared`: every ride the rider shares by link, with its link and a way
 * to stop sharing it, or all of them at once. A stopped link stops working at once.
 */
export function SharedRides() {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const [page, setPage] = useState(1);
  const list = api.useListWorkoutsQuery({ query: { shared: 'true', page, page_size: PAGE_SIZE } });
  const [patch, patching] = api.usePatchWorkoutMutation();
  const [unshareAll, unsharing] = api.useUnshareAllMutation();
  const [confirming, setConfirming] = useState(false);
  const stop = async (id: number) => {
    const result = await patch({ params: { id }, body: { shared: false } });
    if (!('error' in result)) toast(t('workouts.share.off'));
  };
  const stopAll = async () => {
    setConfirming(false);
    const result = await unshareAll();
    if ('data' in result && result.data)
      toast(t('shared.stoppedAll', { count: result.data.unshared }));
  };
  return (
    <>
      <h1>
        <Message id="shared.title" />
      </h1>
      <p className="portal__note">
        <Message id="shared.intro" />{' '}
        <Link to="/dashboard/settings#privacy">
          <Message id="shared.privacySettings" />
        </Link>
      </p>
      <Loaded query={list}>
        {(data) =>
          data.count === 0 ? (
            <EmptyState title={t('shared.none')} />
          ) : (
            <>
              <ul className="portal__list">
                {data.results.map((ride) => (
                  <li key={ride.id}>
                    <Link to={`/dashboard/workouts/share/${ride.id}`}>{ride.name}</Link>{' '}
                    <span className="portal__note">{formatDate(ride.start_time, locale)}</span>{' '}
                    <button
                      type="button"
                      className="xoss-button"
                      disabled={patching.isLoading}
                      onClick={() => void stop(ride.id)}
                    >
                      <Message id="shared.stop" />
                    </button>
                  </li>
                ))}
              </ul>
              {data.next || page > 1 ? (
                <Pager page={page} pageSize={PAGE_SIZE} list={data} onPage={setPage} />
              ) : null}
              <p className="portal__actions">
                <button
                  type="button"
                  className="xoss-button"
                  data-variant="danger"
                  disabled={unsharing.isLoading}
                  onClick={() => setConfirming(true)}
                >
                  <Message id="shared.stopAll" />
                </button>
              </p>
              <ConfirmDialog
                open={confirming}
                tone="danger"
                message={t('shared.confirmAll', { count: data.count })}
                onCancel={() => setConfirming(false)}
                onConfirm={() => void stopAll()}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}
