// An FTP for a ride that has none (no rider's setting, none in its file, no power model of
// the 42 days before it): read off a best curve (the rider's rides of those 42 days, or the
// ride's own) by the published field tests, so every ride with power gets its intervals,
// W' balance and matches, and the page says the FTP is an estimate and where it comes from.

/**
 * The field tests an FTP is read off a best curve by, longest first: the best power over
 * `seconds` times `share`. An hour's best is FTP's own definition (Allen & Coggan, _Training
 * and Racing with a Power Meter_), 95 % of the best 20 minutes their 20-minute test, 90 % of
 * the best 8 minutes Carmichael's 8-minute test (_The Time-Crunched Cyclist_), 75 % of the
 * best minute the ramp test's rule (the best minute of a ramp to exhaustion, as Zwift's and
 * TrainerRoad's ramp tests read it).
 */
const FTP_TESTS: readonly { readonly seconds: number; readonly share: number }[] = [
  { seconds: 3600, share: 1 },
  { seconds: 1200, share: 0.95 },
  { seconds: 480, share: 0.9 },
  { seconds: 60, share: 0.75 },
];

const valueOf = (curve: ArrayLike<number>, test: (typeof FTP_TESTS)[number]) => {
  const watts = curve.length >= test.seconds ? curve[test.seconds - 1]! * test.share : NaN;
  return Number.isFinite(watts) && watts > 0 ? watts : undefined;
};

/**
 * The FTP a best curve (`curve[d - 1]`: best watts over `d` s) shows: the longest field test
 * it reaches (`FTP_TESTS`); from an hour on, the higher of the hour and the 20-minute rule,
 * since a long easy ride's best hour is no test of the rider. `undefined` for a curve shorter
 * than a minute or without power.
 */
export function ftpFromCurve(curve: ArrayLike<number> | null | undefined): number | undefined {
  if (!curve) return undefined;
  const [hour, twenty] = FTP_TESTS;
  const longHour = valueOf(curve, hour!);
  if (longHour !== undefined) return Math.max(longHour, valueOf(curve, twenty!) ?? 0);
  for (const test of FTP_TESTS.slice(1)) {
    const watts = valueOf(curve, test);
    if (watts !== undefined) return watts;
  }
  return undefined;
}
