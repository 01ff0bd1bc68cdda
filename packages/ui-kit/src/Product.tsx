import type { ReactNode } from 'react';
import { Message, useT } from '@xoss/i18n/react';

export type DeviceShape = 'NAV' | 'G' | 'G2' | 'SPRINT';

const shapes: Record<
  DeviceShape,
  { body: [number, number]; screen: [number, number, number, number]; buttons: number }
> = {
  // Body width/height and the screen rectangle, in a 120 x 160 box.
  NAV: { body: [78, 132], screen: [12, 16, 54, 72], buttons: 3 },
  SPRINT: { body: [80, 140], screen: [10, 14, 60, 96], buttons: 2 },
  G: { body: [72, 92], screen: [11, 12, 50, 56], buttons: 2 },
  G2: { body: [74, 96], screen: [11, 12, 52, 60], buttons: 2 },
};

export interface DeviceIllustrationProps {
  readonly shape: DeviceShape;
  /** Accessible name ("XOSS NAV+"). */
  readonly title: string;
  readonly size?: number;
}

/** A bike computer drawn in SVG: body, screen with a data page, buttons. No photos needed. */
export function DeviceIllustration({ shape, title, size = 120 }: DeviceIllustrationProps) {
  const { body, screen, buttons } = shapes[shape];
  const left = (120 - body[0]) / 2;
  const top = (160 - body[1]) / 2;
  const [sx, sy, sw, sh] = screen;
  return (
    <svg
      width={size}
      height={(size * 160) / 120}
      viewBox="0 0 120 160"
      role="img"
      aria-label={title}
    >
      <rect
        x={left}
        y={top}
        width={body[0]}
        height={body[1]}
        rx={14}
        fill="var(--xoss-device-body)"
      />
      <rect
        x={left + 3}
        y={top + 3}
        width={body[0] - 6}
        height={body[1] - 6}
        rx={11}
        fill="none"
        stroke="var(--xoss-device-bezel)"
      />
      <rect
        x={left + sx}
        y={top + sy}
        width={sw}
        height={sh}
        rx={3}
        fill="var(--xoss-device-screen)"
      />
      <text
        x={left + sx + sw / 2}
        y={top + sy + sh * 0.45}
        fontSize={sh * 0.28}
        fontWeight={700}
        textAnchor="middle"
        fill="var(--xoss-device-ink)"
        fontFamily="sans-serif"
      >
        32.4
      </text>
      <line
        x1={left + sx + 4}
        x2={left + sx + sw - 4}
        y1={top + sy + sh * 0.6}
        y2={top + sy + sh * 0.6}
        stroke="var(--xoss-device-rule)"
      />
      <path
        d={`M${left + sx + 4},${top + sy + sh - 6} l${sw * 0.2},-${sh * 0.18} l${sw * 0.2},${sh * 0.08} l${sw * 0.2},-${sh * 0.2} l${sw * 0.28},${sh * 0.1}`}
        fill="none"
        stroke="var(--xoss-color-brand)"
        strokeWidth={2}
      />
      <text
        x={60}
        y={top + body[1] - 8}
        fontSize={7}
        letterSpacing={1.5}
        textAnchor="middle"
        fill="var(--xoss-device-logo)"
        fontFamily="sans-serif"
      >
        XOSS
      </text>
      {Array.from({ length: buttons }, (_, index) => (
        <rect
          key={index}
          x={left + body[0] - 1}
          y={top + 20 + index * 18}
          width={4}
          height={12}
          rx={2}
          fill="var(--xoss-device-button)"
        />
      ))}
    </svg>
  );
}

export interface ProductCardProps {
  readonly name: string;
  readonly tagline: ReactNode;
  /** The product page. */
  readonly href: string;
  /** The shop page behind Buy Now. */
  readonly buyHref: string;
  readonly illustration?: ReactNode;
  /** NAV's page has a black background (spec 2); its card can match. */
  readonly theme?: 'light' | 'night';
  /** Heading level in the page's outline. */
  readonly headingLevel?: 2 | 3;
}

/** A product on the home page: illustration, name, one line, Learn more and Buy Now. */
export function ProductCard({
  name,
  tagline,
  href,
  buyHref,
  illustration,
  theme = 'light',
  headingLevel = 3,
}: ProductCardProps) {
  const t = useT();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="xoss-product-card xoss-root" data-theme={theme}>
      {illustration}
      <Heading>
        <a href={href}>{name}</a>
      </Heading>
      <p>{tagline}</p>
      <a
        className="xoss-button"
        data-variant="primary"
        href={buyHref}
        rel="noopener noreferrer"
        target="_blank"
        aria-label={`${t('common.buyNow')}: ${name}`}
      >
        <Message id="common.buyNow" />
      </a>
    </article>
  );
}
