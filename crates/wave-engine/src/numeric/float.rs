//! F32 ops on 32-bit register bits (IEEE binary32, Rust semantics).
//!
//! Each function reinterprets its inputs with `f32::from_bits`, computes like the reference
//! emulator does, and returns the result's bits. NaN payloads follow the host's float unit, as they
//! do in the reference emulator.

#[inline]
fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// `fadd`.
#[inline]
pub fn fadd(a: u32, b: u32) -> u32 {
    (f(a) + f(b)).to_bits()
}

/// `fsub`.
#[inline]
pub fn fsub(a: u32, b: u32) -> u32 {
    (f(a) - f(b)).to_bits()
}

/// `fmul`.
#[inline]
pub fn fmul(a: u32, b: u32) -> u32 {
    (f(a) * f(b)).to_bits()
}

/// `fdiv`: IEEE division, except that a divisor of ±0.0 always gives +Inf, even for 0/0, NaN/0
/// and −x/0 (the reference emulator tests the divisor first; wave-isa.md D15).
#[inline]
pub fn fdiv(a: u32, b: u32) -> u32 {
    let divisor = f(b);
    if divisor == 0.0 {
        f32::INFINITY.to_bits()
    } else {
        (f(a) / divisor).to_bits()
    }
}

/// `fmin`: the smaller value, ignoring a NaN operand (Rust `f32::min`, not NaN-propagating;
/// wave-isa.md D15).
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
    f(a).floor().to_bits()
}

/// `fceil`: round toward +∞.
#[inline]
pub fn fceil(a: u32) -> u32 {
    f(a).ceil().to_bits()
}

/// `fround`: round to nearest, **ties away from zero** (Rust `f32::round`; −2.5 → −3.0), not the
/// ties-to-even the docs describe (wave-isa.md D15).
#[inline]
pub fn fround(a: u32) -> u32 {
    f(a).round().to_bits()
}

/// `ftrunc`: round toward zero.
#[inline]
pub fn ftrunc(a: u32) -> u32 {
    f(a).trunc().to_bits()
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

/// `fma`: a × b + c with a single rounding (`f32::mul_add`).
#[inline]
pub fn fma(a: u32, b: u32, c: u32) -> u32 {
    f(a).mul_add(f(b), f(c)).to_bits()
}

/// `fclamp`: clamp `x` to `[lo, hi]`.
///
/// This is `f32::clamp` without its assertion: first `if x < lo { lo }`, then `if > hi { hi }`.
/// When `lo <= hi` and neither bound is NaN it is bit-identical to the reference emulator (which
/// calls `f32::clamp`), and a NaN `x` passes through unchanged. Where the reference emulator
/// panics (wave-isa.md D11) the playground commits to a result instead:
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
