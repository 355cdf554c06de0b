//! F64 ops. A double lives in a register pair: low word in rN, high word in rN+1.
//!
//! The ops take and return the 64-bit pattern as `u64`; [`join`] and [`split`] convert from and to
//! the (low, high) register pair. Plain IEEE binary64 with Rust semantics; unlike `fdiv`, `ddiv`
//! has no special case for a zero divisor.

/// The f64 bit pattern held by the register pair (`low` = rN, `high` = rN+1).
#[inline]
pub fn join(low: u32, high: u32) -> u64 {
    u64::from(low) | (u64::from(high) << 32)
}

/// The register pair (low word, high word) holding an f64 bit pattern.
#[inline]
pub fn split(bits: u64) -> (u32, u32) {
    (bits as u32, (bits >> 32) as u32)
}

#[inline]
fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// The quiet bit of an f64 NaN.
const QUIET_BIT: u64 = 0x0008_0000_0000_0000;
/// The NaN the x86 float unit makes when no operand is NaN (∞ − ∞, 0 × ∞).
const DEFAULT_NAN: u64 = 0xFFF8_0000_0000_0000;

/// The result of a commutative operation on `a` and `b`, with the NaN the x86 float unit (and so
/// wave-emu) gives made explicit: the first NaN operand, quieted, or the default NaN. The
/// compiler may swap the operands of `+` and `*` (it did inside the machine's run loop, giving the
/// second operand's NaN when both were NaN), so which NaN comes out must not be left to it; the
/// f32 ops follow the same rule (`float::first_nan_rule`).
#[inline(always)]
fn first_nan_rule(a: u64, b: u64, result: f64) -> u64 {
    let is_nan = |x: u64| x & !(1 << 63) > 0x7FF0_0000_0000_0000;
    if !result.is_nan() {
        result.to_bits()
    } else if is_nan(a) {
        a | QUIET_BIT
    } else if is_nan(b) {
        b | QUIET_BIT
    } else {
        DEFAULT_NAN
    }
}

/// `dadd`.
#[inline]
pub fn dadd(a: u64, b: u64) -> u64 {
    first_nan_rule(a, b, d(a) + d(b))
}

/// `dsub`.
#[inline]
pub fn dsub(a: u64, b: u64) -> u64 {
    (d(a) - d(b)).to_bits()
}

/// `dmul`.
#[inline]
pub fn dmul(a: u64, b: u64) -> u64 {
    first_nan_rule(a, b, d(a) * d(b))
}

/// `ddiv`: IEEE division (x/0 gives ±Inf, 0/0 gives NaN).
#[inline]
pub fn ddiv(a: u64, b: u64) -> u64 {
    (d(a) / d(b)).to_bits()
}

/// `dma`: a × b + c with a single rounding (`f64::mul_add`).
#[inline]
pub fn dma(a: u64, b: u64, c: u64) -> u64 {
    d(a).mul_add(d(b), d(c)).to_bits()
}

/// `dsqrt`: correctly rounded square root.
#[inline]
pub fn dsqrt(a: u64) -> u64 {
    d(a).sqrt().to_bits()
}
