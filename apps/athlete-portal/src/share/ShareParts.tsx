// The pieces of a ride's page that are about its sharing: the visitor's header, the owner's
// link and choices, and the page a stopped or broken link shows.
import type { SharedWorkout, WorkoutDetail } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { apiFailureOf } from '@xoss/api-client';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { useFailureText, useSportName, useToast } from '../components/common.tsx';

/** The rider, date and sport of a shared ride, and what its map leaves out. */
export function SharedHeader({ shared }: { shared: SharedWorkout }) {
  const t = useT();
  const sportName = useSportName();
  const locale = useLocale();
  const units = useUnits(locale);
  const date = new Date(shared.start_time).toLocaleDateString(locale, { dateStyle: 'long' });
  return (
    <>
      <p className="portal__note">
        {[shared.rider.display_name, date, sportName(shared.sport_type)]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {shared.privacy.hidden_start_m > 0 || shared.privacy.zones_applied ? (
        <p className="portal__note">
          {t('workouts.share.privacyNote', {
            trim: units.distance(shared.privacy.hidden_start_m),
            zones: String(shared.privacy.zones_applied),
          })}
        </p>
      ) : null}
    </>
  );
}

/** The owner's choice of what the share link shows of this ride. */
export function ShareChoices({ workout }: { workout: WorkoutDetail }) {
  const [patch, patching] = api.usePatchWorkoutMutation();
  const choose = (body: { share_heart_rate?: boolean; share_power?: boolean }) =>
    void patch({ params: { id: workout.id }, body });
  return (
    <p className="portal__actions">
      <label className="xoss-choice">
        <input
          type="checkbox"
          checked={workout.share_heart_rate}
          disabled={patching.isLoading}
          onChange={(event) => choose({ share_heart_rate: event.target.checked })}
        />
        <Message id="workouts.share.showHeartRate" />
      </label>
      <label className="xoss-choice">
        <input
          type="checkbox"
          checked={workout.share_power}
          disabled={patching.isLoading}
          onChange={(event) => choose({ share_power: event.target.checked })}
        />
        <Message id="workouts.share.showPower" />
      </label>
    </p>
  );
}

/**
 * The address anyone can open while sharing is on, with a button to copy it. It names the
 * share only (`share/ride?share=…`), not the ride's internal id.
 */
export function ShareLink({ shareId }: { shareId: string }) {
  const t = useT();
  const toast = useToast();
  const href = `${window.location.origin}/dashboard/workouts/share/ride?share=${shareId}`;
  return (
    <p className="portal__share">
      <label>
        <Message id="workouts.share.link" />
        <input
          className="xoss-select"
          readOnly
          value={href}
          onFocus={(event) => event.target.select()}
        />
      </label>
      <button
        type="button"
        className="xoss-button"
        onClick={() =>
          void navigator.clipboard.writeText(href).then(
            () => toast(t('workouts.share.copied')),
            () => undefined,
          )
        }
      >
        <Message id="workouts.share.copy" />
      </button>
    </p>
  );
}

/**
 * Why a share link shows no ride, as a page of its own: the visitor has no account here, so
 * it says what happened in their language and offers the home page, never the login (a
 * stopped or mistyped link is no reason to sign in). Without `error` the link itself is not
 * a share link's form.
 */
export function ShareUnavailable({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const t = useT();
  const failureText = useFailureText();
  const failure = apiFailureOf(error);
  const status = failure?.status;
  // The API's 404 is both an unknown link and one whose rider stopped sharing (it does not
  // tell them apart, so a stopped link confirms nothing); 400 is a share id of no valid form.
  const gone = error === undefined || status === 404 || status === 410 || status === 400;
  const retryAfterS =
    failure && typeof status === 'number' && 'retryAfterS' in failure
      ? failure.retryAfterS
      : undefined;
  const text = gone
    ? t('workouts.share.gone.text')
    : status === 429
      ? t('workouts.share.later.tooMany', { seconds: Math.ceil(retryAfterS ?? 60) })
      : status === 503
        ? t('workouts.share.later.busy')
        : failureText(error);
  return (
    <section className="portal__card" aria-labelledby="share-unavailable">
      <h1 id="share-unavailable">
        {gone ? (
          <Message id="workouts.share.gone.title" />
        ) : (
          <Message id="workouts.share.later.title" />
        )}
      </h1>
      <p>{text}</p>
      <p className="portal__actions">
        {!gone && onRetry ? (
          <button type="button" className="xoss-button" onClick={onRetry}>
            <Message id="common.retry" />
          </button>
        ) : null}
        {/* The site's home page: a page of another app, so a full page load. */}
        <a className="xoss-button" href="/">
          <Message id="workouts.share.home" />
        </a>
      </p>
    </section>
  );
}
