//! IEEE binary16 (f16) ops, through the `half` crate as in the reference emulator.
//!
//! Every op widens its f16 operands to f32 (exact), computes one f32 operation and rounds the
//! result once to f16, round-to-nearest-even. Scalar ops read the low 16 bits of each register and
//! write the result zero-extended; packed `*2` ops do the same on both halves independently
//! (low half = bits 0..16, high half = bits 16..32).

use half::f16;

use super::float::first_nan_rule;

// The `_const` conversions are `half`'s portable software path. The plain `to_f32`/`from_f32`
// pick the F16C instructions at run time when the crate's `std` feature is on (it is for the
// reference emulator), and the software path otherwise (our wasm build). Always taking the software
// path makes every target give the same bits; the oracle test checks it against wave-emu's
// hardware conversions.

/// Widens the f16 in the low 16 bits of `bits` to f32 (exact; NaNs are quieted, payload kept).
#[inline]
pub fn f16_to_f32(bits: u32) -> f32 {
    f16::from_bits(bits as u16).to_f32_const()
}

/// Rounds an f32 to f16 bits, round-to-nearest-even (overflow gives ±Inf).
#[inline]
pub fn f32_to_f16(value: f32) -> u16 {
    f16::from_f32_const(value).to_bits()
}

#[inline]
fn low(bits: u32) -> u32 {
    bits & 0xFFFF
}

#[inline]
fn high(bits: u32) -> u32 {
    bits >> 16
}

#[inline]
fn pack(low: u16, high: u16) -> u32 {
    u32::from(low) | (u32::from(high) << 16)
}

#[inline]
fn add16(a: u32, b: u32) -> u16 {
    let (a, b) = (f16_to_f32(a), f16_to_f32(b));
    f32_to_f16(first_nan_rule(a.to_bits(), b.to_bits(), a + b))
}

#[inline]
fn sub16(a: u32, b: u32) -> u16 {
    f32_to_f16(f16_to_f32(a) - f16_to_f32(b))
}

#[inline]
fn mul16(a: u32, b: u32) -> u16 {
    let (a, b) = (f16_to_f32(a), f16_to_f32(b));
    f32_to_f16(first_nan_rule(a.to_bits(), b.to_bits(), a * b))
}

/// a × b + c as an f32 fused multiply-add, then rounded to f16 (two roundings in total, exactly
/// like the reference emulator).
#[inline]
fn ma16(a: u32, b: u32, c: u32) -> u16 {
    f32_to_f16(f16_to_f32(a).mul_add(f16_to_f32(b), f16_to_f32(c)))
}

/// `hadd`: scalar f16 add of the low halves; result zero-extended.
#[inline]
pub fn hadd(a: u32, b: u32) -> u32 {
    u32::from(add16(a, b))
}

/// `hsub`: scalar f16 subtract of the low halves; result zero-extended.
#[inline]
pub fn hsub(a: u32, b: u32) -> u32 {
    u32::from(sub16(a, b))
}

/// `hmul`: scalar f16 multiply of the low halves; result zero-extended.
#[inline]
pub fn hmul(a: u32, b: u32) -> u32 {
    u32::from(mul16(a, b))
}

/// `hma`: scalar f16 a × b + c of the low halves; result zero-extended.
#[inline]
pub fn hma(a: u32, b: u32, c: u32) -> u32 {
    u32::from(ma16(a, b, c))
}

/// `hadd2`: packed f16 add, both halves.
#[inline]
pub fn hadd2(a: u32, b: u32) -> u32 {
    pack(add16(low(a), low(b)), add16(high(a), high(b)))
}

/// `hmul2`: packed f16 multiply, both halves.
#[inline]
pub fn hmul2(a: u32, b: u32) -> u32 {
    pack(mul16(low(a), low(b)), mul16(high(a), high(b)))
}

/// `hma2`: packed f16 a × b + c, both halves.
#[inline]
pub fn hma2(a: u32, b: u32, c: u32) -> u32 {
    pack(
        ma16(low(a), low(b), low(c)),
        ma16(high(a), high(b), high(c)),
    )
}
