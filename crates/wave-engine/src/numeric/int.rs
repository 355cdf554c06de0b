//! Integer ALU ops on 32-bit register bits.
//!
//! Registers are plain `u32`; signed ops reinterpret them as `i32`. Every op wraps (the reference
//! emulator is a release build), and none panics, whatever the inputs.

/// `iadd`: a + b, wrapping.
#[inline]
pub fn iadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// `isub`: a − b, wrapping.
#[inline]
pub fn isub(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b)
}

/// `imul`: low 32 bits of a × b (identical for signed and unsigned operands).
#[inline]
pub fn imul(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

/// `imul_hi`: high 32 bits of the **unsigned** 64-bit product. The reference emulator
/// zero-extends both operands before multiplying, so this is the unsigned high word even though
/// the other integer ops are signed (the WAVE docs leave it open; the playground follows the
/// emulator).
#[inline]
pub fn imul_hi(a: u32, b: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) >> 32) as u32
}

/// `idiv`: signed division truncating toward zero. A zero divisor gives 0 (not a trap) and
/// `MIN / -1` wraps to `MIN`.
#[inline]
pub fn idiv(a: u32, b: u32) -> u32 {
    if b == 0 {
        0
    } else {
        (a as i32).wrapping_div(b as i32) as u32
    }
}

/// `imod`: signed remainder with the sign of the dividend. A zero divisor gives 0 and
/// `MIN % -1` gives 0.
#[inline]
pub fn imod(a: u32, b: u32) -> u32 {
    if b == 0 {
        0
    } else {
        (a as i32).wrapping_rem(b as i32) as u32
    }
}

/// `imin`: signed minimum.
#[inline]
pub fn imin(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}

/// `imax`: signed maximum.
#[inline]
pub fn imax(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}

/// Unsigned minimum: what atomic and wave `min` compute (unlike the signed `imin`, as the
/// reference emulator does).
#[inline]
pub fn umin(a: u32, b: u32) -> u32 {
    a.min(b)
}

/// Unsigned maximum: what atomic and wave `max` compute.
#[inline]
pub fn umax(a: u32, b: u32) -> u32 {
    a.max(b)
}

/// `ineg`: two's-complement negation, wrapping (`MIN` stays `MIN`).
#[inline]
pub fn ineg(a: u32) -> u32 {
    a.wrapping_neg()
}

/// `iabs`: absolute value as an unsigned number, so `MIN` gives 0x8000_0000.
#[inline]
pub fn iabs(a: u32) -> u32 {
    (a as i32).unsigned_abs()
}

/// `imad`: a × b + c, wrapping.
#[inline]
pub fn imad(a: u32, b: u32, c: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// `iclamp`: signed clamp of `x` to `[lo, hi]`.
///
/// Computed as `min(max(x, lo), hi)`. When `lo <= hi` this equals the reference emulator's
/// `i32::clamp`. When `lo > hi` the reference emulator panics (docs/spec-departures.md, "clamp
/// with crossed bounds"); the playground commits to never crashing, and with this formula **`hi`
/// wins**: the result is `hi` for every `x`.
#[inline]
pub fn iclamp(x: u32, lo: u32, hi: u32) -> u32 {
    (x as i32).max(lo as i32).min(hi as i32) as u32
}
