import type React from 'react';
import { Message } from '@xoss/i18n/react';
import { copyrightYears } from './copyright.ts';

export interface FooterProps {
  /** The current date; defaults to now. Stories and tests pass a fixed one. */
  now?: Date;
}

/** The site footer with the copyright span computed from the current year (spec 9). */
export function Footer({ now }: FooterProps): React.JSX.Element {
  return (
    <footer className="xoss-footer">
      <small>
        <Message id="footer.copyright" values={{ years: copyrightYears(now) }} />
      </small>
    </footer>
  );
}
