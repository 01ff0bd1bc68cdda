import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { dataFields } from '@xoss/data-fields';
import { useLocale, useT } from '@xoss/i18n/react';

/**
 * The design tokens as the stylesheet declares them: every custom property of `:root` in
 * `styles.css`, read from the page's style sheets, so this page never lists a token that
 * is not there or misses a new one.
 */
function rootTokens(): [string, string][] {
  const found: [string, string][] = [];
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // another origin's sheet
    }
    for (const rule of Array.from(rules)) {
      if (!(rule instanceof CSSStyleRule) || rule.selectorText !== ':root') continue;
      for (const name of Array.from(rule.style)) {
        if (name.startsWith('--xoss-'))
          found.push([name, rule.style.getPropertyValue(name).trim()]);
      }
    }
  }
  return found;
}

const groupOf = (name: string) => name.replace(/^--xoss-/, '').split('-')[0]!;

function TokenTable({
  group,
}: {
  group: 'color' | 'zone' | 'chart' | 'device' | 'space' | 'other';
}) {
  const [all] = useState(rootTokens);
  const tokens = all.filter(([name]) => {
    const kind = groupOf(name);
    return group === 'other'
      ? !['color', 'zone', 'chart', 'device', 'space', 'font'].includes(kind)
      : kind === group;
  });
  return (
    <table className="xoss-table" data-testid={`tokens-${group}`}>
      <thead>
        <tr>
          <th scope="col">Token</th>
          <th scope="col">Value</th>
          <th scope="col">Sample</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map(([name, value]) => (
          <tr key={name}>
            <td>
              <code>{name}</code>
            </td>
            <td>
              <code>{value}</code>
            </td>
            <td>
              {group === 'space' ? (
                <span
                  style={{
                    display: 'inline-block',
                    height: 12,
                    width: `var(${name})`,
                    background: 'var(--xoss-color-ink)',
                  }}
                />
              ) : group === 'other' ? null : (
                <span
                  style={{
                    display: 'inline-block',
                    width: 48,
                    height: 24,
                    borderRadius: 4,
                    border: '1px solid var(--xoss-color-line)',
                    background: `var(${name})`,
                  }}
                />
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The type scale: every `--xoss-font-size-*` token, with a sample drawn at its size. */
function Typography() {
  const [all] = useState(rootTokens);
  const sizes = all.filter(([name]) => name.startsWith('--xoss-font-size-'));
  const sample = 'XOSS NAV+ 42.7 km · 1:52:08';
  return (
    <div className="xoss-root" style={{ fontFamily: 'var(--xoss-font)' }}>
      {sizes.map(([name, value]) => (
        <p key={name} style={{ margin: '0 0 12px' }}>
          <span style={{ fontSize: `var(${name})`, display: 'block' }}>{sample}</span>
          <small style={{ color: 'var(--xoss-color-ink-muted)' }}>
            <code>{name}</code>: {value}
          </small>
        </p>
      ))}
      <p style={{ color: 'var(--xoss-color-ink-muted)' }}>
        Page titles (h1, h2) keep the browser&apos;s sizes, 2em and 1.5em of the body.
      </p>
      <p style={{ fontFamily: 'var(--xoss-font-mono)' }}>--xoss-font-mono: 0123456789</p>
    </div>
  );
}

function FieldIcons() {
  const t = useT();
  return (
    <ul
      className="xoss-root"
      lang={useLocale()}
      data-testid="field-icons"
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
        gap: 8,
        listStyle: 'none',
        padding: 0,
      }}
    >
      {dataFields.map((field) => (
        <li key={field.key} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
          <span
            style={{ width: 36, height: 36, flexShrink: 0 }}
            aria-hidden="true"
            // Static SVG from @xoss/data-fields, never user input.
            dangerouslySetInnerHTML={{ __html: field.icons.normal }}
          />
          <span
            style={{ width: 36, height: 36, flexShrink: 0, background: 'var(--xoss-color-brand)' }}
            aria-hidden="true"
            dangerouslySetInnerHTML={{ __html: field.icons.selected }}
          />
          <small style={{ minWidth: 0, overflowWrap: 'anywhere', hyphens: 'auto' }}>
            {t(field.messageIds.name)}
          </small>
        </li>
      ))}
    </ul>
  );
}

const meta = {
  title: 'Design system/Tokens',
  component: TokenTable,
  args: { group: 'color' },
  tags: ['!autodocs'],
} satisfies Meta<typeof TokenTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Brand, text, surfaces, lines, focus and state colours. */
export const Colours: Story = {};
/** The seven training-zone colours, shared by zone bars and charts. */
export const Zones: Story = { args: { group: 'zone' } };
/** The colour of each chart's line (speed, elevation, heart rate, fitness…). */
export const Charts: Story = { args: { group: 'chart' } };

/** The product illustrations' and the data-page preview's colours (the device itself). */
export const DeviceIllustrations: Story = { args: { group: 'device' } };
/** The spacing scale (4 px steps) and the other sizes. */
export const Spacing: Story = { args: { group: 'space' } };
export const RadiusShadowAndSizes: Story = { args: { group: 'other' } };
export const TypeScale: Story = { render: () => <Typography /> };
/** The 49 data fields' icons, normal and selected (white on the brand colour). */
export const DataFieldIcons: Story = { render: () => <FieldIcons /> };
