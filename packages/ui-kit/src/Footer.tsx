import type React from 'react';
import { copyrightYears } from './copyright.ts';

export interface FooterProps {
  /** The company name shown after the years. */
  owner?: string;
  /** The current date; defaults to now. Stories and tests pass a fixed one. */
  now?: Date;
}

/** The site footer with the copyright span computed from the current year. */
export function Footer({ owner = 'XOSS', now }: FooterProps): React.JSX.Element {
  return (
    <footer className="xoss-footer">
      <small>
        © {copyrightYears(now)} {owner}
      </small>
    </footer>
  );
}
