//! bfloat16 (bf16) ops: the top 16 bits of an f32.
//!
//! Widening is exact (`bits << 16`). Narrowing **truncates** (`>> 16`): no rounding, as the WAVE
//! emulator does. A consequence worth knowing: an f32 NaN whose payload lives only
//! in the low 16 bits narrows to ±Inf. Ops follow the f16 pattern: widen, one f32 operation,
//! narrow once; scalar ops use the low 16 bits and zero-extend, packed `*2` ops work on both halves.
//! bf16 is absent from wave-emu 0.1.2, so these are tested against independently computed values.

use super::float::first_nan_rule;

/// Widens the bf16 in the low 16 bits of `bits` to f32 (exact).
#[inline]
pub fn bf16_to_f32(bits: u32) -> f32 {
    f32::from_bits(bits << 16)
}

/// Narrows an f32 to bf16 bits by truncation.
#[inline]
pub fn f32_to_bf16(value: f32) -> u32 {
    value.to_bits() >> 16
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
fn pack(low: u32, high: u32) -> u32 {
    low | (high << 16)
}

#[inline]
fn add16(a: u32, b: u32) -> u32 {
    let (a, b) = (low(a) << 16, low(b) << 16);
    f32_to_bf16(first_nan_rule(a, b, f32::from_bits(a) + f32::from_bits(b)))
}

#[inline]
fn sub16(a: u32, b: u32) -> u32 {
    f32_to_bf16(bf16_to_f32(low(a)) - bf16_to_f32(low(b)))
}

#[inline]
fn mul16(a: u32, b: u32) -> u32 {
    let (a, b) = (low(a) << 16, low(b) << 16);
    f32_to_bf16(first_nan_rule(a, b, f32::from_bits(a) * f32::from_bits(b)))
}

/// a × b + c as an f32 fused multiply-add, then truncated to bf16.
#[inline]
fn ma16(a: u32, b: u32, c: u32) -> u32 {
    f32_to_bf16(bf16_to_f32(low(a)).mul_add(bf16_to_f32(low(b)), bf16_to_f32(low(c))))
}

/// `badd`: scalar bf16 add of the low halves; result zero-extended.
#[inline]
pub fn badd(a: u32, b: u32) -> u32 {
    add16(a, b)
}

/// `bsub`: scalar bf16 subtract of the low halves; result zero-extended.
#[inline]
pub fn bsub(a: u32, b: u32) -> u32 {
    sub16(a, b)
}

/// `bmul`: scalar bf16 multiply of the low halves; result zero-extended.
#[inline]
pub fn bmul(a: u32, b: u32) -> u32 {
    mul16(a, b)
}

/// `bma`: scalar bf16 a × b + c of the low halves; result zero-extended.
#[inline]
pub fn bma(a: u32, b: u32, c: u32) -> u32 {
    ma16(a, b, c)
}

/// `badd2`: packed bf16 add, both halves.
#[inline]
pub fn badd2(a: u32, b: u32) -> u32 {
    pack(add16(a, b), add16(high(a), high(b)))
}

/// `bmul2`: packed bf16 multiply, both halves.
#[inline]
pub fn bmul2(a: u32, b: u32) -> u32 {
    pack(mul16(a, b), mul16(high(a), high(b)))
}

/// `bma2`: packed bf16 a × b + c, both halves.
#[inline]
pub fn bma2(a: u32, b: u32, c: u32) -> u32 {
    pack(ma16(a, b, c), ma16(high(a), high(b), high(c)))
}
