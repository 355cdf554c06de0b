//! F32 ops on 32-bit register bits (IEEE binary32, Rust semantics).
//!
//! Each function reinterprets its inputs with `f32::from_bits`, computes like the reference
//! emulator does, and returns the result's bits. NaN payloads follow the host's float unit, as they
//! do in the reference emulator.

#[inline]
fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// The result of a commutative operation on `a` and `b` (as f32 bits), with the NaN the x86 float
/// unit (and so wave-emu) gives made explicit: the first NaN operand, quieted, or the default NaN
/// when no input is NaN (∞ − ∞, 0 × ∞). The compiler may swap the operands of `+` and `*` — and
/// did, differently in the two copies of the run loop — so which NaN comes out must not be left to
/// the instruction it picks.
#[inline(always)]
pub fn first_nan_rule(a: u32, b: u32, result: f32) -> f32 {
    let is_nan = |x: u32| x & 0x7FFF_FFFF > 0x7F80_0000;
    if !result.is_nan() {
        result
    } else if is_nan(a) {
        f(a | QUIET_BIT)
    } else if is_nan(b) {
        f(b | QUIET_BIT)
    } else {
        f(DEFAULT_NAN)
    }
}

/// `result`, or `a` itself when `a` is NaN: floor, ceil and trunc pass a NaN through unchanged in
/// the reference emulator (a signalling NaN stays signalling), while the SSE4.1 rounding
/// instruction the compiler uses where it can quiets it.
#[inline(always)]
fn keep_nan(a: u32, result: f32) -> u32 {
    if f(a).is_nan() {
        a
    } else {
        result.to_bits()
    }
}

/// `fadd`.
#[inline]
pub fn fadd(a: u32, b: u32) -> u32 {
    first_nan_rule(a, b, f(a) + f(b)).to_bits()
}

/// `fsub`.
#[inline]
pub fn fsub(a: u32, b: u32) -> u32 {
    (f(a) - f(b)).to_bits()
}

/// `fmul`.
#[inline]
pub fn fmul(a: u32, b: u32) -> u32 {
    first_nan_rule(a, b, f(a) * f(b)).to_bits()
}

/// `fdiv`: IEEE division, except that a divisor of ±0.0 always gives +Inf, even for 0/0, NaN/0
/// and −x/0 (the reference emulator tests the divisor first, and the playground follows it).
#[inline]
pub fn fdiv(a: u32, b: u32) -> u32 {
    let divisor = f(b);
    if divisor == 0.0 {
        f32::INFINITY.to_bits()
    } else {
        (f(a) / divisor).to_bits()
    }
}

/// `fmin`: the smaller value, ignoring a NaN operand (Rust `f32::min`, as the reference emulator;
/// the WAVE docs describe a NaN-propagating minimum).
///
/// Spelled out instead of calling `f32::min`, whose result for ±0.0 and for two NaNs is left to
/// the platform: this is what the reference emulator gives on x86-64 (equal operands such as
/// −0.0/+0.0 give `a`; a NaN `a` gives `b`, so two NaNs give `b`), and it is the same on every
/// target, wasm included.
#[inline]
pub fn fmin(a: u32, b: u32) -> u32 {
    let (x, y) = (f(a), f(b));
    if x.is_nan() || y < x {
        b
    } else {
        a
    }
}

/// `fmax`: the larger value, ignoring a NaN operand. Same tie and NaN rules as [`fmin`].
#[inline]
pub fn fmax(a: u32, b: u32) -> u32 {
    let (x, y) = (f(a), f(b));
    if x.is_nan() || y > x {
        b
    } else {
        a
    }
}

/// `fneg`: flips the sign bit (NaNs included).
#[inline]
pub fn fneg(a: u32) -> u32 {
    a ^ 0x8000_0000
}

/// `fabs`: clears the sign bit (NaNs included).
#[inline]
pub fn fabs(a: u32) -> u32 {
    a & 0x7FFF_FFFF
}

/// `fsqrt`: correctly rounded square root; negative inputs give NaN, −0.0 gives −0.0.
#[inline]
pub fn fsqrt(a: u32) -> u32 {
    f(a).sqrt().to_bits()
}

/// `frsqrt`: `1 / sqrt(x)`, two roundings, exactly as the reference emulator computes it.
#[inline]
pub fn frsqrt(a: u32) -> u32 {
    (1.0 / f(a).sqrt()).to_bits()
}

/// `frcp`: `1 / x` (IEEE: ±0.0 gives ±Inf here; the fdiv zero rule does not apply).
#[inline]
pub fn frcp(a: u32) -> u32 {
    (1.0 / f(a)).to_bits()
}

/// `ffloor`: round toward −∞.
#[inline]
pub fn ffloor(a: u32) -> u32 {
    keep_nan(a, f(a).floor())
}

/// `fceil`: round toward +∞.
#[inline]
pub fn fceil(a: u32) -> u32 {
    keep_nan(a, f(a).ceil())
}

/// `fround`: round to nearest, **ties away from zero** (Rust `f32::round`; −2.5 → −3.0), not the
/// ties-to-even the WAVE docs describe: the reference emulator rounds this way, and so do we.
#[inline]
pub fn fround(a: u32) -> u32 {
    f(a).round().to_bits()
}

/// `ftrunc`: round toward zero.
#[inline]
pub fn ftrunc(a: u32) -> u32 {
    keep_nan(a, f(a).trunc())
}

/// `ffract`: `x − trunc(x)`, so negative for negative x (−2.5 → −0.5) and NaN for ±Inf.
#[inline]
pub fn ffract(a: u32) -> u32 {
    let x = f(a);
    (x - x.trunc()).to_bits()
}

/// `fsat`: clamp to [0, 1]. A NaN stays the same NaN and −0.0 stays −0.0 (`f32::clamp(0.0, 1.0)`).
#[inline]
pub fn fsat(a: u32) -> u32 {
    fclamp(a, 0.0f32.to_bits(), 1.0f32.to_bits())
}

/// `fsin`: host `f32::sin`.
#[inline]
pub fn fsin(a: u32) -> u32 {
    f(a).sin().to_bits()
}

/// `fcos`: host `f32::cos`.
#[inline]
pub fn fcos(a: u32) -> u32 {
    f(a).cos().to_bits()
}

/// `fexp2`: host `f32::exp2`.
#[inline]
pub fn fexp2(a: u32) -> u32 {
    f(a).exp2().to_bits()
}

/// `flog2`: host `f32::log2`.
#[inline]
pub fn flog2(a: u32) -> u32 {
    f(a).log2().to_bits()
}

/// `fma`: a × b + c with a single rounding. Where the build targets a hardware fused
/// multiply-add this is `f32::mul_add`; elsewhere (wasm, baseline x86-64) `mul_add` would be a
/// scalar libm call per lane, so [`fma_by_round_to_odd`] computes the same bits with plain,
/// vectorisable f64 arithmetic. (The machine's lane loops compute the common, NaN-free case
/// themselves, with the CPU's fma where it has one, and come here only for NaN results.)
#[inline]
pub fn fma(a: u32, b: u32, c: u32) -> u32 {
    if let Some(nan) = fma_nan(a, b, c) {
        return nan;
    }
    #[cfg(target_feature = "fma")]
    let result = f(a).mul_add(f(b), f(c)).to_bits();
    #[cfg(not(target_feature = "fma"))]
    let result = fma_by_round_to_odd(a, b, c);
    fma_result(result)
}

const QUIET_BIT: u32 = 0x0040_0000;
/// The NaN x86 produces for an invalid operation such as ∞ × 0.
const DEFAULT_NAN: u32 = 0xFFC0_0000;

/// Which NaN an `fma` with a NaN input returns, fixed here rather than left to the instruction
/// the compiler picks: the first NaN of `b`, `a`, `c`, quieted — what glibc's `fmaf` (and so
/// wave-emu) does, checked per operand combination by the numeric oracle.
#[inline(always)]
fn fma_nan(a: u32, b: u32, c: u32) -> Option<u32> {
    let is_nan = |x: u32| f(x).is_nan();
    [b, a, c]
        .into_iter()
        .find(|&x| is_nan(x))
        .map(|x| x | QUIET_BIT)
}

/// An invalid product (∞ × 0) with no NaN input gives the default NaN whatever the hardware does.
#[inline(always)]
fn fma_result(bits: u32) -> u32 {
    if f32::from_bits(bits).is_nan() {
        DEFAULT_NAN
    } else {
        bits
    }
}

/// f64 bits below an f32 mantissa, and the pattern of an f32 midpoint in them (the bit just below
/// the f32 mantissa set, all lower bits clear).
pub(crate) const BELOW_F32: u64 = (1 << 29) - 1;
pub(crate) const F32_MIDPOINT: u64 = 1 << 28;

/// `a × b + c` rounded to f64 and then to f32 when that is surely the single correct rounding,
/// else `None`. Four operations a lane and no branch (the caller's lane loop vectorises): the fast
/// path of machines without a fused multiply-add (wasm has its own copy in 128-bit SIMD,
/// `machine/fma_simd128.rs`); the caller asks [`fma`] for the lanes it refuses. A NaN result is
/// returned as is: the caller must not take it (which NaN comes out is [`fma`]'s to say).
///
/// The product is exact in f64; the f64 sum rounds once. Rounding is monotonic and every midpoint
/// between two normal f32 values is an f64, so rounding that sum to f32 can differ from rounding
/// the exact value only when the sum lands exactly on such a midpoint, or in the subnormal range
/// (where f32 has fewer bits). Those sums are refused. An exact zero sum is exact (a non-zero f64
/// sum never rounds to zero), and an infinite one rounds the same either way.
#[inline(always)]
pub fn fma_twice_rounded(a: u32, b: u32, c: u32) -> Option<u32> {
    let sum = f(a) as f64 * f(b) as f64 + f(c) as f64;
    let on_midpoint = sum.to_bits() & BELOW_F32 == F32_MIDPOINT;
    let subnormal = sum.abs() < f32::MIN_POSITIVE as f64 && sum != 0.0;
    let result = (sum as f32).to_bits();
    (!on_midpoint && !subnormal).then_some(result)
}

/// Exactly-rounded f32 fused multiply-add without an fma instruction.
///
/// The product of two f32 values is exact in f64 (24 + 24 significant bits < 53). The f64 sum
/// `p + c` may round, but TwoSum recovers its exact error; if the error is non-zero the sum is
/// forced to the neighbour with an odd last bit ("round to odd"). A value rounded to odd with at
/// least two spare bits rounds to f32 exactly as the infinitely precise value would, so the final
/// conversion is the single correct rounding. Infinities and NaNs skip the correction (their TwoSum
/// error is NaN).
///
/// Straight-line code on purpose: with no branch, the machine's loop over a wave's lanes
/// vectorises (two f64 lanes per 128-bit wasm SIMD operation). Skipping the correction when the
/// sum is not on an f32 midpoint would be right too, but the branch keeps the loop scalar.
#[inline]
pub fn fma_by_round_to_odd(a: u32, b: u32, c: u32) -> u32 {
    let product = f(a) as f64 * f(b) as f64;
    let addend = f(c) as f64;
    let sum = product + addend;
    let addend_part = sum - product;
    let error = (product - (sum - addend_part)) + (addend - addend_part);
    let bits = sum.to_bits();
    // A non-zero finite error with an even last bit: step one ulp towards the exact value.
    let inexact_even = error != 0.0 && error.is_finite() && bits & 1 == 0;
    let towards_larger_magnitude = (error > 0.0) == (sum > 0.0);
    let direction = if towards_larger_magnitude { 1 } else { -1 };
    let adjusted = bits.wrapping_add_signed(direction * inexact_even as i64);
    (f64::from_bits(adjusted) as f32).to_bits()
}

/// `acc[j] = a × b[j] + acc[j]`, each rounded once ([`fma_by_round_to_odd`]), for the `acc.len()`
/// little-endian f32 values of `b` (a row of a matrix in memory; any bytes past them are ignored).
///
/// A whole row in one call so that the loop is compiled here, at the engine's optimisation level
/// (vectorised), for callers built for size: the page's GEMM check spends 134 million of these on
/// a 512 × 512 result.
pub fn fma_row_by_round_to_odd(acc: &mut [f32], a: f32, b: &[u8]) {
    let a = a.to_bits();
    for (acc, b) in acc.iter_mut().zip(b.chunks_exact(4)) {
        let b = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        *acc = f32::from_bits(fma_by_round_to_odd(a, b, acc.to_bits()));
    }
}

/// `fclamp`: clamp `x` to `[lo, hi]`.
///
/// This is `f32::clamp` without its assertion: first `if x < lo { lo }`, then `if > hi { hi }`.
/// When `lo <= hi` and neither bound is NaN it is bit-identical to the reference emulator (which
/// calls `f32::clamp`), and a NaN `x` passes through unchanged. Where the reference emulator
/// panics (docs/spec-departures.md, "clamp with crossed bounds") the playground commits to a
/// result instead:
/// - `lo > hi`: every `x` except NaN gives `hi` ("hi wins", as for `iclamp`);
/// - a NaN bound is ignored, so that side is unbounded.
#[inline]
pub fn fclamp(x: u32, lo: u32, hi: u32) -> u32 {
    let value = f(x);
    let raised = if value < f(lo) { lo } else { x };
    if f(raised) > f(hi) {
        hi
    } else {
        raised
    }
}
