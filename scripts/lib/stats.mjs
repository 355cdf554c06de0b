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
