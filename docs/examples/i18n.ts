// @xoss/i18n: the rider's language negotiated, a message translated.
import { localeFor, normalizeLanguage, translatorFor } from '@xoss/i18n';

const language = normalizeLanguage('de-AT'); // 'de': one of the nine languages
const translator = await translatorFor(language); // loads that language's catalogue only
console.log(language, localeFor('zh-Hant-HK'), translator.t('common.remove'));
