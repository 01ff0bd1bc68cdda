import type { MessageId } from '@xoss/i18n';
import { Message, useT } from '@xoss/i18n/react';
import { copyrightYears } from '@xoss/ui-kit';
import { NavLink, useParams } from 'react-router';
import { NotFound } from './NotFound.tsx';

/** One legal document: English paragraphs under headings (the English text applies). */
interface LegalDocument {
  readonly title: MessageId;
  readonly sections: readonly (readonly [heading: string, ...paragraphs: string[]])[];
}

const UPDATED = '2026-11-01';

/** Spec 2's children of /copyright, in menu order. */
const legalDocuments: Readonly<Record<string, LegalDocument>> = {
  terms: {
    title: 'footer.terms',
    sections: [
      [
        'Using this site',
        'This site and the XOSS account area are offered by XOSS to riders who own or are interested in XOSS products. By using them you accept these terms.',
        'You may read, download and print pages and manuals for your own, non-commercial use. Do not copy the site, its software or its maps for any other purpose.',
      ],
      [
        'Your account',
        'You create your account in the XOSS app. Keep your password to yourself; you are responsible for what happens under your account. Tell us at support@xoss.co if you think someone else has used it.',
      ],
      [
        'Your rides and routes',
        'Workouts, routes and data layouts you upload stay yours. You let us store and process them to show them to you, and to others only when you turn sharing on.',
      ],
      [
        'Maps and navigation',
        'Maps and routes can be wrong or out of date. Always follow the road, traffic signs and local law; never rely on the device alone.',
      ],
      [
        'Liability',
        'We work to keep the site available and correct but cannot promise it is free of errors or interruptions. Nothing in these terms limits rights you have by law as a consumer.',
      ],
    ],
  },
  protocol: {
    title: 'footer.protocol',
    sections: [
      [
        'The agreement',
        'This user agreement covers the XOSS app, the account area and the firmware and map updates delivered through them.',
      ],
      [
        'Licence',
        'We grant you a personal, non-transferable licence to use the software on devices you own. You may not reverse-engineer it except where the law allows.',
      ],
      [
        'Updates',
        'Firmware and maps are updated from time to time. Keep the device connected while an update or a map import runs; an interrupted import may need to be repeated.',
      ],
      [
        'Ending the agreement',
        'You can delete your account in the app at any time. We may suspend accounts used to harm others or the service.',
      ],
    ],
  },
  termsLocal: {
    title: 'copyright.termsLocal',
    sections: [
      [
        'European Union and United Kingdom',
        'You have a statutory warranty of at least two years on products bought from us and a 14-day right of withdrawal for online purchases.',
      ],
      [
        'United States',
        'Warranty claims are handled by the seller you bought from; keep your proof of purchase.',
      ],
      [
        'Mainland China, Hong Kong, Macau and Taiwan',
        'Products sold in these regions are covered by the after-sales terms printed in the box. Contact support@xoss.co for service in your region.',
      ],
    ],
  },
  policy: {
    title: 'footer.privacy',
    sections: [
      [
        'What we collect',
        'Your e-mail address and name, the devices you pair, and the workouts, routes and data layouts you upload. The site keeps your sign-in and preferences in your browser.',
      ],
      [
        'Why',
        'To run your account, show you your rides, keep your devices in step with the app, and answer you when you write to support. We do not sell your data.',
      ],
      [
        'Sharing',
        'A workout is visible to others only through a share link you switch on, and stops being visible when you switch it off.',
      ],
      [
        'Your rights',
        'You can see, export, correct and delete your data in the app, or ask us at support@xoss.co. We keep data only as long as your account exists, or as the law requires.',
      ],
    ],
  },
  cookies: {
    title: 'footer.cookies',
    sections: [
      [
        'What we store',
        'Your sign-in tokens (7 days), your language and units, and whether you accepted cookies. Your name and picture are stored only after you accept.',
      ],
      [
        'No tracking',
        'We use no advertising or third-party tracking cookies. The help chat stores nothing until you open it.',
      ],
      [
        'Your choice',
        'Accept or Decline in the cookie notice. Declining keeps the site working; you then sign in again after closing the browser.',
      ],
    ],
  },
};

/**
 * `/copyright/{document}`: terms, protocol, termsLocal, policy, cookies. Spec 2 shows these
 * pages at half zoom: the documents are set at double size and shown at `zoom: 0.5`, so they
 * read at the normal size.
 */
export function LegalPage() {
  const t = useT();
  const { document: name } = useParams();
  const document = name ? legalDocuments[name] : undefined;
  if (!document) return <NotFound />;
  return (
    <div className="site__legal-layout">
      <nav aria-label={t('copyright.title')}>
        <ul>
          {Object.entries(legalDocuments).map(([key, entry]) => (
            <li key={key}>
              <NavLink to={`/copyright/${key}`}>{t(entry.title)}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <article className="site__legal">
        <h1>{t(document.title)}</h1>
        <p className="site__muted">
          {t('copyright.updated', { date: UPDATED })} · © {copyrightYears()} XOSS
        </p>
        <p className="site__muted">
          <Message id="copyright.englishOnly" />
        </p>
        <div lang="en">
          {document.sections.map(([heading, ...paragraphs]) => (
            <section key={heading}>
              <h2>{heading}</h2>
              {paragraphs.map((paragraph) => (
                <p key={paragraph.slice(0, 40)}>{paragraph}</p>
              ))}
            </section>
          ))}
        </div>
      </article>
    </div>
  );
}
