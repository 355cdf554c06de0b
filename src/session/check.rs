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

fn f32_at(bytes: &[u8], offset: usize) -> Option<f32> {
    let word = bytes.get(offset..offset + 4)?;
    Some(f32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

impl Check {
    /// The verdict, e.g. "GEMM check: max error 0 over 65536 values".
    pub fn report(&self, initial: &[u8], final_memory: &[u8]) -> String {
        match *self {
            Check::Gemm { n, a, b, c } => match gemm_max_error(n, a, b, c, initial, final_memory) {
                Some((error, count)) => {
                    format!("GEMM check: max error {error} over {count} values")
                }
                None => "GEMM check: the matrices do not fit in device memory".to_string(),
            },
        }
    }
}

/// The reference C computed from `initial` (A and B), compared with C in `final_memory`.
/// Returns the largest absolute difference (infinite when a value is NaN on one side only) and
/// the number of values compared.
pub(crate) fn gemm_max_error(
    n: u32,
    a: u32,
    b: u32,
    c: u32,
    initial: &[u8],
    final_memory: &[u8],
) -> Option<(f32, usize)> {
    let n = n as usize;
    let read = |bytes: &[u8], base: u32| -> Option<Vec<f32>> {
        (0..n * n)
            .map(|i| f32_at(bytes, base as usize + i * 4))
            .collect()
    };
    let matrix_a = read(initial, a)?;
    let matrix_b = read(initial, b)?;
    let result = read(final_memory, c)?;
    let mut worst = 0f32;
    for i in 0..n {
        for j in 0..n {
            let mut acc = 0f32;
            for k in 0..n {
                acc = matrix_a[i * n + k].mul_add(matrix_b[k * n + j], acc);
            }
            let got = result[i * n + j];
            let error = if acc.is_nan() && got.is_nan() {
                0.0
            } else if acc.is_nan() || got.is_nan() {
                f32::INFINITY
            } else {
                (acc - got).abs()
            };
            worst = worst.max(error);
        }
    }
    Some((worst, n * n))
}
