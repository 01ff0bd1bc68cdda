import { Message, useT } from '@xoss/i18n/react';

export interface CookieNoticeProps {
  readonly onAccept: () => void;
  readonly onDecline: () => void;
  readonly policyHref?: string;
}

/** The cookie notice (spec 4): Accept or Decline; the app hides it once answered. */
export function CookieNotice({
  onAccept,
  onDecline,
  policyHref = '/copyright/cookies',
}: CookieNoticeProps) {
  const t = useT();
  return (
    <section className="xoss-cookie xoss-root" aria-label={t('footer.cookies')}>
      <p>
        <Message id="cookie.message" /> <a href={policyHref}>{t('footer.cookies')}</a>
      </p>
      <button type="button" className="xoss-button" onClick={onDecline}>
        <Message id="cookie.decline" />
      </button>
      <button type="button" className="xoss-button" data-variant="primary" onClick={onAccept}>
        <Message id="cookie.accept" />
      </button>
    </section>
  );
}
