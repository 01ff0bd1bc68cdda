import { normalizeLanguage } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { DeviceIllustration, DownloadTable, SpecTable } from '@xoss/ui-kit';
import { Link, Navigate, useParams } from 'react-router';
import { NotFound } from './NotFound.tsx';
import { productSpecs } from '../productSpecs.ts';
import {
  SHOP_URL,
  appHref,
  manualHref,
  manualLanguages,
  productBySlug,
  products,
} from '../products.ts';

// The product pages load as one chunk of their own (a prerendered one loads it before
// hydrating, routes.tsx `preloadRoute`); only the home page is in the first load.

/** `/product/{slug}`: a product with its specification table (spec 9's figures). */
export function ProductPage() {
  const t = useT();
  const locale = useLocale();
  const { slug } = useParams();
  const product = productBySlug(slug);
  if (!product) return <NotFound />;
  const name = t(product.name);
  return (
    <article className="site__product" data-theme={product.theme}>
      <div className="site__product-hero">
        <DeviceIllustration shape={product.shape} title={name} size={180} />
        <div>
          {/* One text node: the prerendered heading reads as one phrase, without a marker. */}
          <h1>{`XOSS ${name}`}</h1>
          <p className="site__lead">{t(product.tagline)}</p>
          <p>{t(product.intro)}</p>
          <p className="site__actions">
            <a className="xoss-button" data-variant="primary" href={SHOP_URL}>
              <Message id="common.buyNow" />
            </a>
            <Link className="xoss-button" to={`/product/manuals#${product.slug}`}>
              {t('product.manualLink', { name })}
            </Link>
            <Link className="xoss-button" to={appHref(locale)}>
              <Message id="apps.get" />
            </Link>
          </p>
        </div>
      </div>
      <SpecTable
        caption={t('product.specsOf', { name })}
        rows={[
          { label: t('spec.model'), value: name },
          ...productSpecs[product.slug].map((line) => ({
            label: t(line.label),
            value: t(line.value, line.values),
          })),
        ]}
      />
    </article>
  );
}

/** `/product/manuals`: each product's manual (sensors and lights too) in every manual language. */
export function Manuals() {
  const t = useT();
  return (
    <>
      <h1>
        <Message id="nav.manuals" />
      </h1>
      <p>
        <Message id="manuals.intro" />
      </p>
      {products.map((product) => (
        <section key={product.slug} id={product.slug} className="site__manuals">
          <DownloadTable
            caption={t('manuals.of', { name: t(product.name) })}
            rows={manualLanguages.map((language) => ({
              name: `${t(product.name)} · ${t(`manuals.language.${language}`)}`,
              href: manualHref(product.slug, language),
              language: t(`manuals.language.${language}`),
              version: 'PDF',
            }))}
          />
        </section>
      ))}
    </>
  );
}

export const APP_STORE_URL = 'https://apps.apple.com/app/xoss/id1242383394';
export const GOOGLE_PLAY_URL = 'https://play.google.com/store/apps/details?id=com.xoss.app';

/**
 * The store pages in a language: Google Play takes it as `hl`, the App Store as `l`. An
 * unknown `{lang}` falls back to English, as the site does (spec 4).
 */
export function storeLinks(lang: string | undefined) {
  const language = normalizeLanguage(lang);
  return {
    appStore: `${APP_STORE_URL}?l=${encodeURIComponent(language)}`,
    googlePlay: `${GOOGLE_PLAY_URL}&hl=${encodeURIComponent(language)}`,
  };
}

/**
 * `/product/download` and `/product/download/{lang}`: the app for iPhone and Android, the
 * store pages in `{lang}` (product and download pages link here in the visitor's language),
 * else in the site's.
 */
export function AppDownload() {
  const t = useT();
  const locale = useLocale();
  const { lang } = useParams();
  const stores = storeLinks(lang ?? locale);
  return (
    <>
      <h1>
        <Message id="apps.title" />
      </h1>
      <p>
        <Message id="apps.intro" />
      </p>
      <p className="site__actions">
        <a className="xoss-button" data-variant="primary" href={stores.appStore}>
          {t('apps.getOn', { platform: t('apps.iphone') })}
        </a>
        <a className="xoss-button" data-variant="primary" href={stores.googlePlay}>
          {t('apps.getOn', { platform: t('apps.android') })}
        </a>
      </p>
    </>
  );
}

/** Known support addresses (spec 9: support and cooperation contacts exist). */
export const SUPPORT_EMAIL = 'support@xoss.co';
export const COOPERATION_EMAIL = 'cooperation@xoss.co';

/** `/product/contact`: About, Support, Cooperation. */
export function Contact() {
  const t = useT();
  const section = (
    id: string,
    title: 'contact.about' | 'contact.support' | 'contact.cooperation',
    text: 'contact.aboutText' | 'contact.supportText' | 'contact.cooperationText',
    email?: string,
  ) => (
    <section aria-labelledby={id} className="site__contact">
      <h2 id={id}>{t(title)}</h2>
      <p>{t(text)}</p>
      {email ? (
        <p>
          <a href={`mailto:${email}`}>{t('contact.writeTo', { email })}</a>
        </p>
      ) : null}
    </section>
  );
  return (
    <>
      <h1>
        <Message id="contact.title" />
      </h1>
      {section('about', 'contact.about', 'contact.aboutText')}
      {section('support', 'contact.support', 'contact.supportText', SUPPORT_EMAIL)}
      {section('cooperation', 'contact.cooperation', 'contact.cooperationText', COOPERATION_EMAIL)}
    </>
  );
}

/** `/product/download/{lang}` with an unknown tail still shows the app page. */
export function ProductIndex() {
  return <Navigate to="/product/manuals" replace />;
}
