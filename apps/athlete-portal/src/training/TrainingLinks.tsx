import { Message } from '@xoss/i18n/react';
import { Link } from 'react-router';

/** The three training pages, as buttons: on the dashboard and atop each training page. */
export function TrainingLinks() {
  return (
    <div className="portal__actions">
      <Link className="xoss-button" to="/dashboard/training/log">
        <Message id="training.log" />
      </Link>
      <Link className="xoss-button" to="/dashboard/training/fitness">
        <Message id="training.fitness" />
      </Link>
      <Link className="xoss-button" to="/dashboard/training/bests">
        <Message id="training.bests" />
      </Link>
    </div>
  );
}
