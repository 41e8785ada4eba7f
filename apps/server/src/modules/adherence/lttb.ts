/**
 * Largest-Triangle-Three-Buckets (Steinarsson, 2013): picks `threshold` of the points so a line
 * through them looks like the line through all. The first and last points are kept; the rest are
 * cut into threshold − 2 buckets of equal count, and from each the point forming the largest
 * triangle with the point kept before it and the next bucket's average, which keeps peaks and
 * dips that an average or every-nth sample would flatten. Answers indices into the input, in order.
 * `x` must be ascending.
 */
export function lttbIndices(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  threshold: number,
): Uint32Array {
  const n = Math.min(x.length, y.length);
  if (threshold >= n || n <= 2) return Uint32Array.from({ length: n }, (_, i) => i);
  if (threshold < 3) {
    return threshold <= 0
      ? new Uint32Array(0)
      : threshold === 1
        ? Uint32Array.of(0)
        : Uint32Array.of(0, n - 1);
  }
  const picked = new Uint32Array(threshold);
  const bucket = (n - 2) / (threshold - 2);
  let a = 0;
  picked[0] = 0;
  for (let b = 0; b < threshold - 2; b++) {
    const start = Math.floor(b * bucket) + 1;
    const end = Math.floor((b + 1) * bucket) + 1;
    // The next bucket's average (the last point for the last bucket).
    const nextStart = end;
    const nextEnd = Math.min(Math.floor((b + 2) * bucket) + 1, n);
    let avgX = 0;
    let avgY = 0;
    for (let i = nextStart; i < nextEnd; i++) {
      avgX += x[i] as number;
      avgY += y[i] as number;
    }
    const count = nextEnd - nextStart;
    if (count > 0) {
      avgX /= count;
      avgY /= count;
    } else {
      avgX = x[n - 1] as number;
      avgY = y[n - 1] as number;
    }
    const ax = x[a] as number;
    const ay = y[a] as number;
    let best = start;
    let bestArea = -1;
    for (let i = start; i < end; i++) {
      // Twice the triangle's area; the factor does not change which is largest.
      const area = Math.abs(
        (ax - avgX) * ((y[i] as number) - ay) - (ax - (x[i] as number)) * (avgY - ay),
      );
      if (area > bestArea) {
        bestArea = area;
        best = i;
      }
    }
    picked[b + 1] = best;
    a = best;
  }
  picked[threshold - 1] = n - 1;
  return picked;
}
