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

/// `dadd`.
#[inline]
pub fn dadd(a: u64, b: u64) -> u64 {
    (d(a) + d(b)).to_bits()
}

/// `dsub`.
#[inline]
pub fn dsub(a: u64, b: u64) -> u64 {
    (d(a) - d(b)).to_bits()
}

/// `dmul`.
#[inline]
pub fn dmul(a: u64, b: u64) -> u64 {
    (d(a) * d(b)).to_bits()
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
