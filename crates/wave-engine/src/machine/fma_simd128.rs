//! `fma` without a fused multiply-add instruction, four lanes per step on wasm's 128-bit SIMD.
//!
//! Each lane: the product of two f32 values, exact in f64; one f64 add; one rounding to f32.
//! That second rounding gives the single correct rounding of the exact value except in these
//! cases:
//! - the f64 sum lands exactly on an f32 midpoint (a GEMM of short-mantissa values does so on
//!   about one lane in ten), settled without leaving the vectors. If the add was exact the tie
//!   is real and rounds to even, as the narrowing does; if not, TwoSum's error says on which side
//!   the exact value lies and the sum is moved one f64 step that way before it is narrowed
//!   ("round to odd");
//! - the result is below the smallest normal f32, where f32 has fewer bits than that argument
//!   assumes, or is NaN (which NaN is [`float::fma`]'s to say): these lanes take [`float::fma`].
//!
//! Written with `core::arch::wasm32` rather than left to the compiler: its vectorised lane loop
//! narrowed each f64 to f32 one lane at a time, and a GEMM in the browser spends most of its time
//! here.

use core::arch::wasm32::*;

use super::wave::Row;
use crate::instr::Instr;
use crate::numeric::float::{self, BELOW_F32, F32_MIDPOINT};

/// `fma` on lanes `0..N` of `rows` (a wave's registers) where `mask` has a bit, in place, the
/// same bits as [`float::fma`] lane by lane. Every operand lane is read before its destination
/// lane is written, so the destination may be an operand. `false`, with nothing written, when a
/// register is outside `rows`. `N` is a multiple of 4 up to the row length.
#[inline(always)]
pub(super) fn fma_rows<const N: usize>(rows: &mut [Row], instr: &Instr, mask: u64) -> bool {
    const { assert!(N.is_multiple_of(4) && N <= 64) };
    let [a, b, c, dst] = [instr.a, instr.b, instr.c, instr.dst].map(usize::from);
    if [a, b, c, dst].iter().any(|&row| row >= rows.len()) {
        return false;
    }
    let below_f32 = u64x2_splat(BELOW_F32);
    let midpoint = u64x2_splat(F32_MIDPOINT);
    let zero = f64x2_splat(0.0);
    let smallest_normal = f64x2_splat(f32::MIN_POSITIVE as f64);
    let lane_bits = u32x4(1, 2, 0, 0);
    // Lanes 0 and 1 of a vector of four f32 as two f64, then lanes 2 and 3.
    let low = |v: v128| f64x2_promote_low_f32x4(v);
    let high = |v: v128| f64x2_promote_low_f32x4(u64x2_shuffle::<1, 1>(v, v));
    let rows = rows.as_mut_ptr();
    for at in (0..N).step_by(4) {
        let lanes = (mask >> at) as u32 & 0xF;
        if lanes == 0 {
            continue;
        }
        // SAFETY: every register index was checked against the rows above, and
        // `at + 4 <= N <= 64`, a row's length; wasm loads need no alignment.
        let [va, vb, vc] =
            [a, b, c].map(|row| unsafe { v128_load((*rows.add(row)).as_ptr().add(at).cast()) });
        let products = [f64x2_mul(low(va), low(vb)), f64x2_mul(high(va), high(vb))];
        let addends = [low(vc), high(vc)];
        let mut sums = [
            f64x2_add(products[0], addends[0]),
            f64x2_add(products[1], addends[1]),
        ];
        let on_midpoint = sums.map(|sum| u64x2_eq(v128_and(sum, below_f32), midpoint));
        if v128_any_true(v128_or(on_midpoint[0], on_midpoint[1])) {
            for half in 0..2 {
                let (product, addend, sum) = (products[half], addends[half], sums[half]);
                let product_part = f64x2_sub(sum, addend);
                let addend_part = f64x2_sub(sum, product_part);
                let error = f64x2_add(
                    f64x2_sub(product, product_part),
                    f64x2_sub(addend, addend_part),
                );
                // All ones (-1) where the sum moves; +1 (away from zero) where the error has
                // the sum's sign.
                let moves = v128_and(on_midpoint[half], f64x2_ne(error, zero));
                let outwards = v128_not(v128_xor(f64x2_gt(error, zero), f64x2_gt(sum, zero)));
                sums[half] = i64x2_add(sum, v128_bitselect(i64x2_neg(moves), moves, outwards));
            }
        }
        // Sums below the smallest normal f32 (but not zero), and NaN sums: all ones.
        let refused = sums.map(|sum| {
            let normal_or_larger = f64x2_ge(f64x2_abs(sum), smallest_normal);
            v128_andnot(f64x2_ne(sum, zero), normal_or_larger)
        });
        // Each f64 lane's verdict is all ones or all zeros: its low half serves as the f32 lane's.
        let refused = u32::from(u32x4_bitmask(u32x4_shuffle::<0, 2, 4, 6>(
            refused[0], refused[1],
        ))) & lanes;
        // SAFETY: as for the loads.
        let dst = unsafe { (*rows.add(dst)).as_mut_ptr().add(at) };
        // Each half narrowed and stored on its own (two lanes in the low half of a vector): put
        // together before that, the compiler saw one four-lane narrowing, which wasm has no
        // instruction for, and went lane by lane.
        for (half, sum) in sums.into_iter().enumerate() {
            let result = f32x4_demote_f64x2_zero(sum);
            let pair = lanes >> (2 * half) & 3;
            // SAFETY: as for the loads (lanes `at + 2 * half` and the next).
            let dst = unsafe { dst.add(2 * half).cast::<u64>() };
            let result = match pair {
                0 => continue,
                3 => result,
                _ => {
                    let chosen = u32x4_ne(v128_and(u32x4_splat(pair), lane_bits), u32x4_splat(0));
                    // SAFETY: `dst` points at two lanes of a row (just above).
                    let kept = unsafe { v128_load64_zero(dst) };
                    v128_bitselect(result, kept, chosen)
                }
            };
            // SAFETY: as for the load just above.
            unsafe { v128_store64_lane::<0>(result, dst) };
        }
        if refused != 0 {
            // SAFETY: `dst` points at four lanes of a row (as for the loads).
            exact_lanes([va, vb, vc], refused, unsafe {
                &mut *dst.cast::<[u32; 4]>()
            });
        }
    }
    true
}

/// Writes into `dst` the lanes of `refused` (bit `l` for lane `l` of the four), computed by
/// [`float::fma`] from the operand lanes (read before the destination was written).
#[cold]
#[inline(never)]
fn exact_lanes(operands: [v128; 3], refused: u32, dst: &mut [u32; 4]) {
    let [a, b, c] = operands.map(|v| {
        let mut lanes = [0u32; 4];
        // SAFETY: a v128 is 16 bytes, the size of `lanes`; stores need no alignment.
        unsafe { v128_store(lanes.as_mut_ptr().cast(), v) };
        lanes
    });
    for lane in (0..4).filter(|lane| refused >> lane & 1 != 0) {
        dst[lane] = float::fma(a[lane], b[lane], c[lane]);
    }
}
