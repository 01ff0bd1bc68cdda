import type { ReactNode } from 'react';
import { Message, useT } from '@xoss/i18n/react';

/** The bike computers' shapes, and the accessories' (heart-rate strap, sensor, lights). */
export type DeviceShape = 'NAV' | 'G' | 'G2' | 'SPRINT' | 'HEART_RATE' | 'SENSOR' | 'LIGHTS';
type AccessoryShape = 'HEART_RATE' | 'SENSOR' | 'LIGHTS';
type ComputerShape = Exclude<DeviceShape, AccessoryShape>;

const accessoryShapes: readonly string[] = ['HEART_RATE', 'SENSOR', 'LIGHTS'];
const isAccessory = (shape: DeviceShape): shape is AccessoryShape =>
  accessoryShapes.includes(shape);

const shapes: Record<
  ComputerShape,
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

/**
 * An accessory in the same box and colours as the bike computers: a chest strap with its
 * pod, a sensor pod on its band, a front and a rear light.
 */
function AccessoryDrawing({ shape }: { shape: AccessoryShape }) {
  const logo = (x: number, y: number) => (
    <text
      x={x}
      y={y}
      fontSize={7}
      letterSpacing={1.5}
      textAnchor="middle"
      fill="var(--xoss-device-logo)"
      fontFamily="sans-serif"
    >
      XOSS
    </text>
  );
  if (shape === 'HEART_RATE')
    return (
      <>
        <rect x={4} y={70} width={112} height={20} rx={10} fill="var(--xoss-device-bezel)" />
        <rect x={30} y={58} width={60} height={44} rx={16} fill="var(--xoss-device-body)" />
        <path
          d="M60,88 l-11,-11 a6,6 0 0 1 11,-7 a6,6 0 0 1 11,7 z"
          fill="var(--xoss-color-brand)"
        />
        {logo(60, 98)}
      </>
    );
  if (shape === 'SENSOR')
    return (
      <>
        <rect x={50} y={24} width={20} height={112} rx={8} fill="var(--xoss-device-bezel)" />
        <rect x={30} y={52} width={60} height={56} rx={22} fill="var(--xoss-device-body)" />
        <circle
          cx={60}
          cy={74}
          r={9}
          fill="none"
          stroke="var(--xoss-color-brand)"
          strokeWidth={3}
        />
        {logo(60, 100)}
      </>
    );
  return (
    <>
      <rect x={10} y={40} width={62} height={40} rx={10} fill="var(--xoss-device-body)" />
      <circle cx={30} cy={60} r={12} fill="var(--xoss-device-screen)" />
      <circle cx={30} cy={60} r={6} fill="var(--xoss-device-ink)" opacity={0.4} />
      {logo(55, 76)}
      <rect x={78} y={84} width={30} height={58} rx={10} fill="var(--xoss-device-body)" />
      <rect x={84} y={92} width={18} height={34} rx={5} fill="var(--xoss-color-brand)" />
    </>
  );
}

/**
 * A bike computer drawn in SVG (body, screen with a data page, buttons), or an accessory.
 * No photos needed.
 */
export function DeviceIllustration({ shape, title, size = 120 }: DeviceIllustrationProps) {
  if (isAccessory(shape))
    return (
      <svg
        width={size}
        height={(size * 160) / 120}
        viewBox="0 0 120 160"
        role="img"
        aria-label={title}
      >
        <AccessoryDrawing shape={shape} />
      </svg>
    );
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
