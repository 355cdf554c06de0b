// The benchmark's work percentiles count the steps Event Timing leaves out (those presented within
// its threshold) as shorter than the threshold, instead of leaving them out of the percentile.
import { test, expect } from './fixtures.mjs';
import { percentile, percentileOf } from '../../scripts/lib/stats.mjs';

test('a percentile over steps with unreported fast ones', () => {
  // 20 steps, 8 reported (16 ms or more), 12 left out as fast.
  const reported = [30, 16, 18, 25, 17, 40, 21, 19];
  // p95 of 20 is rank 19: the 7th of the 8 reported, counted from the bottom.
  expect(percentileOf(reported, 20, 95, 16)).toBe(30);
  expect(percentile(reported, 95), 'the reported keys alone give a higher p95').toBe(40);
  // The median (rank 10) falls among the 12 left out: only "under 16" is known.
  expect(percentileOf(reported, 20, 50, 16)).toBeNull();
  // Rank 13 is the smallest reported value, 16: at the bound, so exact.
  expect(percentileOf(reported, 20, 65, 16)).toBe(16);
  // A reported value under the bound cannot be told apart from the left-out ones.
  expect(percentileOf([10, 20], 3, 50, 16)).toBeNull();
  expect(percentileOf([10, 20], 3, 100, 16)).toBe(20);
  // Every step reported: the plain nearest-rank percentile, under the bound too.
  const all = [9, 17, 18, 19, 20, 21];
  expect(percentileOf(all, all.length, 95, 16)).toBe(percentile(all, 95));
  expect(percentileOf(all, all.length, 10, 16)).toBe(9);
  // No steps: nothing to tell; more measured than there were steps: a caller's mistake.
  expect(percentileOf([], 0, 95, 16)).toBeNull();
  expect(() => percentileOf([20, 21], 1, 95, 16)).toThrow(RangeError);
});
