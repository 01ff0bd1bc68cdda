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
  const x = Float64Array.from({ length: n }, (_, i) => longitude[i]! * 111320 * Math.cos(lat0));
  const y = Float64Array.from({ length: n }, (_, i) => latitude[i]! * 110540);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  const tolerance2 = toleranceM * toleranceM;
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    const dx = x[last]! - x[first]!;
    const dy = y[last]! - y[first]!;
    const length2 = dx * dx + dy * dy;
    let farthest = -1;
    let farthest2 = tolerance2;
    for (let i = first + 1; i < last; i++) {
      let t = length2 > 0 ? ((x[i]! - x[first]!) * dx + (y[i]! - y[first]!) * dy) / length2 : 0;
      t = Math.max(0, Math.min(1, t));
      const ex = x[first]! + t * dx - x[i]!;
      const ey = y[first]! + t * dy - y[i]!;
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
  const indices: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) indices.push(i);
  return Uint32Array.from(indices);
}
