//! Conversions, named `cvt_DST_SRC` like the mnemonics: `cvt_f32_i32` turns an i32 into an f32.
//!
//! Float → integer uses Rust `as`: truncation toward zero, saturating at the type's bounds, NaN
//! gives 0. f16 results are rounded to nearest-even; bf16 results are truncated. Narrow sources
//! (f16, bf16) are read from the low 16 bits and narrow results are zero-extended.

use super::{bf16, fp16};

/// `cvt_f32_i32`: signed integer → f32 (round to nearest-even above 2^24).
#[inline]
pub fn cvt_f32_i32(a: u32) -> u32 {
    (a as i32 as f32).to_bits()
}

/// `cvt_f32_u32`: unsigned integer → f32.
#[inline]
pub fn cvt_f32_u32(a: u32) -> u32 {
    (a as f32).to_bits()
}

/// `cvt_i32_f32`: f32 → i32, truncating, saturating (2^31 → 0x7FFF_FFFF), NaN → 0.
#[inline]
pub fn cvt_i32_f32(a: u32) -> u32 {
    f32::from_bits(a) as i32 as u32
}

/// `cvt_u32_f32`: f32 → u32, truncating, saturating (negative → 0), NaN → 0.
#[inline]
pub fn cvt_u32_f32(a: u32) -> u32 {
    f32::from_bits(a) as u32
}

/// `cvt_f32_f16`: the f16 in the low 16 bits → f32 (exact).
#[inline]
pub fn cvt_f32_f16(a: u32) -> u32 {
    fp16::f16_to_f32(a).to_bits()
}

/// `cvt_f16_f32`: f32 → f16 (round to nearest-even), zero-extended.
#[inline]
pub fn cvt_f16_f32(a: u32) -> u32 {
    u32::from(fp16::f32_to_f16(f32::from_bits(a)))
}

/// `cvt_f32_f64`: the f64 bit pattern (see [`super::fp64::join`]) → f32, round to nearest-even.
#[inline]
pub fn cvt_f32_f64(a: u64) -> u32 {
    (f64::from_bits(a) as f32).to_bits()
}

/// `cvt_f64_f32`: f32 → f64 bit pattern (exact; see [`super::fp64::split`]).
#[inline]
pub fn cvt_f64_f32(a: u32) -> u64 {
    f64::from(f32::from_bits(a)).to_bits()
}

/// `cvt_f32_bf16`: the bf16 in the low 16 bits → f32 (exact: `bits << 16`).
#[inline]
pub fn cvt_f32_bf16(a: u32) -> u32 {
    bf16::bf16_to_f32(a & 0xFFFF).to_bits()
}

/// `cvt_bf16_f32`: f32 → bf16 by truncation (`bits >> 16`), zero-extended.
#[inline]
pub fn cvt_bf16_f32(a: u32) -> u32 {
    bf16::f32_to_bf16(f32::from_bits(a))
}
