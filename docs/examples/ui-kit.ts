// @xoss/ui-kit: a component rendered in the rider's language (here to HTML on a server).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { Footer, formatBytes } from '@xoss/ui-kit'; // and import '@xoss/ui-kit/styles.css' in a bundle

const messages = await loadMessages('en-US');
const footer = createElement(Footer, { now: new Date('2026-01-01') });
const page = createElement(XossIntlProvider, { language: 'en-US', messages, children: footer });
const html = renderToStaticMarkup(page);
console.log(html.length, 'characters of footer;', formatBytes(1_500_000, 'en-US'));
