import { useState } from 'react';
import { Message, useT } from '@xoss/i18n/react';
import { Link } from 'react-router';

/**
 * Two rides picked in the ride list for the compare page: ticking a third lets the oldest
 * pick go, so two are always the last two ticked.
 */
export function useComparePick() {
  const [picked, setPicked] = useState<readonly number[]>([]);
  const toggle = (id: number) =>
    setPicked((current) =>
      current.includes(id) ? current.filter((other) => other !== id) : [...current, id].slice(-2),
    );
  return { picked, toggle };
}

/** The link to the compare page once two rides are ticked, else how to get there. */
export function CompareLink({ picked }: { picked: readonly number[] }) {
  const [a, b] = picked;
  return a !== undefined && b !== undefined ? (
    <p className="portal__actions">
      <Link className="xoss-button" to={`/dashboard/workouts/compare?a=${a}&b=${b}`}>
        <Message id="workouts.compareRides.selected" />
      </Link>
    </p>
  ) : (
    <p className="portal__note">
      <Message id="workouts.compareRides.hint" />
    </p>
  );
}

/** A ride's tick box in the list's compare column. */
export function CompareBox({
  id,
  name,
  picked,
  toggle,
}: {
  id: number;
  name: string;
  picked: readonly number[];
  toggle: (id: number) => void;
}) {
  const t = useT();
  // In a label as wide as it is tall: on a phone the whole 44 px square is the target.
  return (
    <label className="portal__check">
      <input
        type="checkbox"
        checked={picked.includes(id)}
        aria-label={t('workouts.compareRides.pick', { name })}
        onChange={() => toggle(id)}
      />
    </label>
  );
}
