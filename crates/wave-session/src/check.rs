//! Result checks for examples: the session recomputes the expected output in Rust from the same
//! inputs and reports how far the kernel's result is from it.

use serde::{Deserialize, Serialize};

/// A check run when the grid finishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Check {
    /// C = A · B, all `n` × `n` row-major f32 at byte offsets `a`, `b`, `c` in device memory; the
    /// kernel accumulates `c += a * b` with `fma` in ascending k, so the expected result is exact.
    Gemm { n: u32, a: u32, b: u32, c: u32 },
}

impl Check {
    /// The verdict, e.g. "GEMM check: max error 0 over 65536 values", computed at once.
    pub fn report(&self, initial: &[u8], final_memory: &[u8]) -> String {
        let mut run = CheckRun::new(*self);
        loop {
            if let Some(report) = run.advance(initial, final_memory, u64::MAX) {
                return report;
            }
        }
    }
}

/// A check in progress. The reference is computed a few rows at a time, so that the page can
/// spread a large check over several short tasks instead of one that holds its main thread.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CheckRun {
    check: Check,
    next_row: usize,
    worst: f32,
}

impl CheckRun {
    pub(crate) fn new(check: Check) -> Self {
        CheckRun {
            check,
            next_row: 0,
            worst: 0.0,
        }
    }

    /// Computes rows of the reference until about `budget` multiply-adds are spent (at least one
    /// row); returns the verdict once every row is done.
    pub(crate) fn advance(
        &mut self,
        initial: &[u8],
        final_memory: &[u8],
        budget: u64,
    ) -> Option<String> {
        match self.check {
            Check::Gemm { n, a, b, c } => {
                let Some(matrices) = GemmMatrices::at(n, a, b, c, initial, final_memory) else {
                    return Some(
                        "GEMM check: the matrices do not fit in device memory".to_string(),
                    );
                };
                let n = n as usize;
                let per_row = (n as u64).saturating_mul(n as u64).max(1);
                let rows = (budget / per_row).max(1) as usize;
                let end = self.next_row.saturating_add(rows).min(n);
                for i in self.next_row..end {
                    self.worst = self.worst.max(matrices.row_error(i));
                }
                self.next_row = end;
                (end == n)
                    .then(|| format!("GEMM check: max error {} over {} values", self.worst, n * n))
            }
        }
    }
}

/// A, B (in the initial memory) and C (in the final memory), each `n` × `n` little-endian f32,
/// read where they lie: a slice of the check reads only the rows it needs.
struct GemmMatrices<'m> {
    n: usize,
    a: &'m [u8],
    b: &'m [u8],
    c: &'m [u8],
}

impl<'m> GemmMatrices<'m> {
    fn at(
        n: u32,
        a: u32,
        b: u32,
        c: u32,
        initial: &'m [u8],
        final_memory: &'m [u8],
    ) -> Option<Self> {
        let n = n as usize;
        let bytes = n.checked_mul(n)?.checked_mul(4)?;
        let matrix = |memory: &'m [u8], base: u32| {
            let base = base as usize;
            memory.get(base..base.checked_add(bytes)?)
        };
        Some(GemmMatrices {
            n,
            a: matrix(initial, a)?,
            b: matrix(initial, b)?,
            c: matrix(final_memory, c)?,
        })
    }

    /// Row `i` of a matrix, as its `n` f32 values.
    fn row(matrix: &[u8], n: usize, i: usize) -> impl Iterator<Item = f32> + '_ {
        matrix[i * n * 4..(i + 1) * n * 4]
            .chunks_exact(4)
            .map(|w| f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }

    /// The largest absolute difference in row `i` of C (infinite when a value is NaN on one
    /// side only). k is outermost, so each value still accumulates in ascending k as the kernel
    /// does, and each step walks a row of B contiguously.
    fn row_error(&self, i: usize) -> f32 {
        let n = self.n;
        let mut row = vec![0f32; n];
        for (k, a_ik) in Self::row(self.a, n, i).enumerate() {
            let b_row = &self.b[k * n * 4..(k + 1) * n * 4];
            wave_engine::machine::fused_fma_row(&mut row, a_ik, b_row);
        }
        let mut worst = 0f32;
        for (&expected, got) in row.iter().zip(Self::row(self.c, n, i)) {
            let error = if expected.is_nan() && got.is_nan() {
                0.0
            } else if expected.is_nan() || got.is_nan() {
                f32::INFINITY
            } else {
                (expected - got).abs()
            };
            worst = worst.max(error);
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checks_row_of_fused_multiply_adds_rounds_once_like_mul_add() {
        // Values whose product and sum need more than f32 precision, where rounding twice (f64
        // then f32) differs from rounding once.
        let values = [
            1.0f32,
            -1.0,
            1.0 + f32::EPSILON,
            1.0 - f32::EPSILON / 2.0,
            3.0e-8,
            -5.960_464_5e-8,
            0.1,
            1.0e20,
            -7.5e-39,
            16_777_217.0,
            0.333_333_34,
        ];
        // A row of B holding every value, against each a and each starting accumulator.
        let b_row: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        for &a in &values {
            for &c in &values {
                let mut row = vec![c; values.len()];
                wave_engine::machine::fused_fma_row(&mut row, a, &b_row);
                for (got, &b) in row.iter().zip(&values) {
                    assert_eq!(got.to_bits(), a.mul_add(b, c).to_bits(), "{a} * {b} + {c}");
                }
            }
        }
    }

    #[test]
    fn a_wrong_value_of_c_is_reported() {
        let n = 2u32;
        let a = [1.0f32, 2.0, 3.0, 4.0];
        let b = [5.0f32, 6.0, 7.0, 8.0];
        let mut memory = Vec::new();
        for v in a.iter().chain(&b).chain(&[19.0f32, 22.0, 43.0, 50.0]) {
            memory.extend_from_slice(&v.to_le_bytes());
        }
        let check = Check::Gemm {
            n,
            a: 0,
            b: 16,
            c: 32,
        };
        assert_eq!(
            check.report(&memory, &memory),
            "GEMM check: max error 0 over 4 values"
        );
        let mut wrong = memory.clone();
        wrong[44..48].copy_from_slice(&47.5f32.to_le_bytes());
        assert_eq!(
            check.report(&memory, &wrong),
            "GEMM check: max error 2.5 over 4 values"
        );
        // In steps of one row, the same verdict only after the last row.
        let mut run = CheckRun::new(check);
        assert_eq!(run.advance(&memory, &wrong, 1), None);
        assert_eq!(
            run.advance(&memory, &wrong, 1).as_deref(),
            Some("GEMM check: max error 2.5 over 4 values")
        );
        assert_eq!(
            check.report(&memory, &memory[..40]),
            "GEMM check: the matrices do not fit in device memory"
        );
    }
}
