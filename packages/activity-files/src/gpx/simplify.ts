/**
 * Douglas-Peucker simplification of a line of positions (degrees), with the tolerance in
 * metres on a local equirectangular projection. Iterative, so long lines cannot overflow the
 * stack. Returns the kept indices in order (always the first and last).
 */
export function simplifyLine(
  latitude: ArrayLike<number>,
  longitude: ArrayLike<number>,
  toleranceM: number,
): Uint32Array {
  const n = latitude.length;
  if (n <= 2) return Uint32Array.from({ length: n }, (_, i) => i);
  const lat0 = (latitude[0]! * Math.PI) / 180;
  // Plain loops: Float64Array.from with a mapping function is several times slower.
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = longitude[i]! * 111320 * Math.cos(lat0);
    y[i] = latitude[i]! * 110540;
  }
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  const tolerance2 = toleranceM * toleranceM;
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    const x0 = x[first]!;
    const y0 = y[first]!;
    const dx = x[last]! - x0;
    const dy = y[last]! - y0;
    const length2 = dx * dx + dy * dy;
    let farthest = -1;
    let farthest2 = tolerance2;
    for (let i = first + 1; i < last; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      let t = length2 > 0 ? ((xi - x0) * dx + (yi - y0) * dy) / length2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const ex = x0 + t * dx - xi;
      const ey = y0 + t * dy - yi;
      const distance2 = ex * ex + ey * ey;
      if (distance2 > farthest2) {
        farthest2 = distance2;
        farthest = i;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push(first, farthest, farthest, last);
    }
  }
  let kept = 0;
  for (let i = 0; i < n; i++) kept += keep[i]!;
  const indices = new Uint32Array(kept);
  for (let i = 0, k = 0; i < n; i++) if (keep[i]) indices[k++] = i;
  return indices;
}
