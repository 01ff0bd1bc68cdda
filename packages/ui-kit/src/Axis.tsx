/**
 * What an axis needs of a scale: visx's (d3's) linear, log and band scales all have these.
 * A band scale has no `ticks`: its ticks are its domain, marked at each band's middle.
 */
export interface AxisScale<T> {
  (value: T): number | undefined;
  range(): number[];
  domain(): T[];
  ticks?: (count?: number) => T[];
  bandwidth?: () => number;
}

export interface AxisProps<T> {
  readonly scale: AxisScale<T>;
  /** Where the axis sits in its group: the bottom axis at the plot's height. */
  readonly top?: number;
  /** About how many ticks, when `tickValues` is not given (d3's `ticks(count)`). */
  readonly numTicks?: number;
  readonly tickValues?: readonly T[];
  readonly tickFormat: (value: T, index: number) => string;
  /** The left axis' title, written along it (a unit such as "W"). */
  readonly label?: string;
}

const TICK = 8;
const FONT = 10;

function ticksOf<T>(scale: AxisScale<T>, numTicks: number, tickValues?: readonly T[]) {
  if (tickValues) return [...tickValues];
  if (scale.ticks) return scale.ticks(numTicks);
  // A band scale: every nth band, so about `numTicks` are labelled.
  const domain = scale.domain();
  const every = domain.length <= numTicks ? 1 : Math.round((domain.length - 1) / numTicks) || 1;
  return domain.filter((_, index) => index % every === 0);
}

function tickPositions<T>(scale: AxisScale<T>, values: readonly T[]) {
  const middle = scale.bandwidth ? scale.bandwidth() / 2 : 0;
  return values.map((value) => (scale(value) ?? 0) + middle);
}

/**
 * The charts' axes as plain SVG: a line, tick marks and tick labels, styled by the design
 * tokens (`.xoss-axis` in styles.css). Labels never wrap, so nothing is measured in the DOM;
 * visx's own axis measures every label and brings a CSS-expression evaluator with it
 * (about 8 kB brotli on each chart page).
 */
export function AxisBottom<T>({
  scale,
  top = 0,
  numTicks = 10,
  tickValues,
  tickFormat,
}: AxisProps<T>) {
  const values = ticksOf(scale, numTicks, tickValues);
  const positions = tickPositions(scale, values);
  const [start = 0, end = 0] = scale.range();
  return (
    <g className="xoss-axis xoss-axis--bottom" transform={`translate(0, ${top})`}>
      <line className="xoss-axis__line" x1={start + 0.5} x2={end + 0.5} y1={0} y2={0} />
      {values.map((value, index) => (
        <g key={index} className="xoss-axis__tick">
          <line x1={positions[index]} x2={positions[index]} y1={0} y2={TICK} />
          <text
            x={positions[index]}
            y={TICK + FONT * 0.25}
            textAnchor="middle"
            dominantBaseline="hanging"
          >
            {tickFormat(value, index)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The vertical axis at the plot's left edge, with its title rotated along it. */
export function AxisLeft<T>({ scale, numTicks = 10, tickValues, tickFormat, label }: AxisProps<T>) {
  const values = ticksOf(scale, numTicks, tickValues);
  const positions = tickPositions(scale, values);
  const [start = 0, end = 0] = scale.range();
  return (
    <g className="xoss-axis xoss-axis--left">
      <line className="xoss-axis__line" x1={0} x2={0} y1={start + 0.5} y2={end + 0.5} />
      {values.map((value, index) => (
        <g key={index} className="xoss-axis__tick">
          <line x1={0} x2={-TICK} y1={positions[index]} y2={positions[index]} />
          <text
            x={-TICK - FONT * 0.25}
            y={positions[index]}
            textAnchor="end"
            dominantBaseline="middle"
          >
            {tickFormat(value, index)}
          </text>
        </g>
      ))}
      {label ? (
        <text
          className="xoss-axis__label"
          transform={`translate(${-(TICK + 36)}, ${(start + end) / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          {label}
        </text>
      ) : null}
    </g>
  );
}
