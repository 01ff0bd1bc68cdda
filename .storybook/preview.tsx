import type { Preview } from '@storybook/react-vite';
import '../packages/ui-kit/src/styles.css';
import { DEFAULT_LANGUAGE, PSEUDO_LOCALE, languageNames, textLanguages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';

const toolbarNames: Record<string, string> = {
  ...languageNames,
  [PSEUDO_LOCALE]: 'Pseudo (hard-coded text, truncation)',
};

const preview: Preview = {
  // Every component gets a docs page: its stories and a table of its props.
  tags: ['autodocs'],
  parameters: {
    layout: 'padded',
    // Spec 9: mobile layout at widths of 800 px or less, PC above.
    viewport: {
      options: {
        mobile: {
          name: 'Mobile (390 × 844)',
          styles: { width: '390px', height: '844px' },
          type: 'mobile',
        },
        narrow: {
          name: 'Mobile edge (800 px)',
          styles: { width: '800px', height: '900px' },
          type: 'tablet',
        },
        pc: {
          name: 'PC (1280 × 800)',
          styles: { width: '1280px', height: '800px' },
          type: 'desktop',
        },
      },
    },
  },
  // Every story in every language: a toolbar switch, with the pseudo-locale last.
  globalTypes: {
    locale: {
      description: 'Language of the texts',
      toolbar: {
        title: 'Language',
        icon: 'globe',
        items: [...textLanguages, PSEUDO_LOCALE].map((value) => ({
          value,
          title: toolbarNames[value] ?? value,
        })),
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: DEFAULT_LANGUAGE },
  decorators: [
    (Story, context) => (
      <XossIntlProvider language={String(context.globals.locale ?? DEFAULT_LANGUAGE)}>
        <Story />
      </XossIntlProvider>
    ),
  ],
};

export default preview;
