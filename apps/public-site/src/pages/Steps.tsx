import type { MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Link } from 'react-router';
import { appHref } from '../products.ts';

/**
 * "Get the XOSS app": the app page in the visitor's language. Maps and routes reach the
 * device through the app, so the download pages lead there.
 */
export function AppLink() {
  const locale = useLocale();
  return (
    <p>
      <Link className="xoss-button" to={appHref(locale)}>
        <Message id="apps.get" />
      </Link>
    </p>
  );
}

/** Numbered how-to steps under a heading (the page's h1 when it is the page's subject). */
export function Steps({
  title,
  steps,
  main = false,
}: {
  title: MessageId;
  steps: readonly MessageId[];
  /** The page's own subject: its heading is the page's h1. */
  main?: boolean;
}) {
  const t = useT();
  return (
    <section className="site__steps" aria-label={t(title)}>
      {main ? <h1>{t(title)}</h1> : <h2>{t(title)}</h2>}
      <ol>
        {steps.map((step) => (
          <li key={step}>{t(step)}</li>
        ))}
      </ol>
    </section>
  );
}

/** `/download/gpxHow`: from a GPX file to navigation on the device. */
export function GpxHow() {
  return (
    <>
      <Steps
        main
        title="download.gpxHow.title"
        steps={[
          'download.gpx.step1',
          'download.gpx.step2',
          'download.gpx.step3',
          'download.gpx.step4',
        ]}
      />
      <p>
        {/* The upload page belongs to the portal: a full page load. */}
        <a className="xoss-button" data-variant="primary" href="/upload/gpxFile">
          <Message id="download.gpx.upload" />
        </a>
      </p>
      <AppLink />
    </>
  );
}
