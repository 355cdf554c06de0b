// Summaries of measured times, for the benchmark scripts.
export const sorted = (xs) => [...xs].sort((a, b) => a - b);
export const median = (xs) => {
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
// Nearest-rank percentile.
export const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
export const ms = (x) => (x === undefined || x === null ? '–' : `${x.toFixed(1)} ms`);
// Nearest-rank percentile over `total` values of which only `measured` are known, the others
// known to be under `bound` (Event Timing reports only the keys presented `bound` or more after
// them). Exact when every value is known, or when the value at that rank is at least `bound`:
// every unknown value is below it. Otherwise only "under `bound`" is known, and it returns null.
export const percentileOf = (measured, total, p, bound) => {
  if (total < measured.length) throw new RangeError(`${measured.length} values measured of ${total}`);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  const unknown = total - measured.length;
  if (rank <= unknown) return null;
  const value = sorted(measured)[rank - unknown - 1];
  return value >= bound || unknown === 0 ? value : null;
};
