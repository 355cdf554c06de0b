//! Bitwise and bit-field ops on 32-bit register bits.

/// `and`.
#[inline]
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}

/// `or`.
#[inline]
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}

/// `xor`.
#[inline]
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// `mov`: the source's bits, unchanged.
#[inline]
pub fn mov(a: u32) -> u32 {
    a
}

/// `not`: bitwise complement.
#[inline]
pub fn not(a: u32) -> u32 {
    !a
}

/// `shl`: logical shift left; only the low five bits of the amount count.
#[inline]
pub fn shl(a: u32, amount: u32) -> u32 {
    a << (amount & 31)
}

/// `shr`: logical shift right; only the low five bits of the amount count.
#[inline]
pub fn shr(a: u32, amount: u32) -> u32 {
    a >> (amount & 31)
}

/// `sar`: arithmetic shift right (copies the sign bit); only the low five bits of the amount count.
#[inline]
pub fn sar(a: u32, amount: u32) -> u32 {
    ((a as i32) >> (amount & 31)) as u32
}

/// `bitcount`: number of set bits.
#[inline]
pub fn bitcount(a: u32) -> u32 {
    a.count_ones()
}

/// `bitfind`: the number of leading zero bits, or 0xFFFF_FFFF for an input of 0 (the reference
/// emulator's behaviour, which the playground follows; the WAVE docs describe a "find first set").
#[inline]
pub fn bitfind(a: u32) -> u32 {
    if a == 0 {
        u32::MAX
    } else {
        a.leading_zeros()
    }
}

/// `bitrev`: reverses the order of the 32 bits.
#[inline]
pub fn bitrev(a: u32) -> u32 {
    a.reverse_bits()
}

/// A mask of the low `width` bits, for `width` in 0..=31.
#[inline]
fn low_bits(width: u32) -> u32 {
    (1u32 << width) - 1
}

/// `bfe`: unsigned bit-field extract of `width` bits starting at bit `offset`.
///
/// Both `offset` and `width` are taken `& 31`, so a 32-bit-wide field cannot be expressed and
/// width 0 gives 0. When `offset + width > 32` the field simply runs off the top of the word: the
/// missing high bits read as zero (no wrap-around).
#[inline]
pub fn bfe(src: u32, offset: u32, width: u32) -> u32 {
    let width = width & 31;
    if width == 0 {
        0
    } else {
        (src >> (offset & 31)) & low_bits(width)
    }
}

/// `bfi`: inserts the low `width` bits of `insert` into `base` at bit `offset`.
///
/// Both `offset` and `width` are taken `& 31`; width 0 returns `base` unchanged. The mask is
/// `((1 << width) - 1) << offset` in 32 bits, so when `offset + width > 32` the bits that would
/// land above bit 31 are dropped and only the part of the field inside the word is written.
#[inline]
pub fn bfi(base: u32, insert: u32, offset: u32, width: u32) -> u32 {
    let offset = offset & 31;
    let width = width & 31;
    if width == 0 {
        base
    } else {
        let mask = low_bits(width) << offset;
        (base & !mask) | ((insert << offset) & mask)
    }
}
