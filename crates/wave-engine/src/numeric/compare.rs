//! Compares: each returns the lane's new predicate value.
//!
//! `icmp` is signed, `ucmp` unsigned, `fcmp` IEEE (every ordered compare is false when either side
//! is NaN, `ne` is true). `ucmp_gt`, `ucmp_ge` and `fcmp_ge` exist only in the docs' dialect
//! (wave-asm has no such mnemonic); they are the obvious complements.

#[inline]
fn s(bits: u32) -> i32 {
    bits as i32
}

#[inline]
fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// `icmp_eq`.
#[inline]
pub fn icmp_eq(a: u32, b: u32) -> bool {
    a == b
}

/// `icmp_ne`.
#[inline]
pub fn icmp_ne(a: u32, b: u32) -> bool {
    a != b
}

/// `icmp_lt` (signed).
#[inline]
pub fn icmp_lt(a: u32, b: u32) -> bool {
    s(a) < s(b)
}

/// `icmp_le` (signed).
#[inline]
pub fn icmp_le(a: u32, b: u32) -> bool {
    s(a) <= s(b)
}

/// `icmp_gt` (signed).
#[inline]
pub fn icmp_gt(a: u32, b: u32) -> bool {
    s(a) > s(b)
}

/// `icmp_ge` (signed).
#[inline]
pub fn icmp_ge(a: u32, b: u32) -> bool {
    s(a) >= s(b)
}

/// `ucmp_lt` (unsigned).
#[inline]
pub fn ucmp_lt(a: u32, b: u32) -> bool {
    a < b
}

/// `ucmp_le` (unsigned).
#[inline]
pub fn ucmp_le(a: u32, b: u32) -> bool {
    a <= b
}

/// `ucmp.gt` (dialect, unsigned).
#[inline]
pub fn ucmp_gt(a: u32, b: u32) -> bool {
    a > b
}

/// `ucmp.ge` (dialect, unsigned).
#[inline]
pub fn ucmp_ge(a: u32, b: u32) -> bool {
    a >= b
}

/// `fcmp_eq`: false if either is NaN; −0.0 equals +0.0.
#[inline]
pub fn fcmp_eq(a: u32, b: u32) -> bool {
    f(a) == f(b)
}

/// `fcmp_ne`: true if either is NaN.
#[inline]
pub fn fcmp_ne(a: u32, b: u32) -> bool {
    f(a) != f(b)
}

/// `fcmp_lt`.
#[inline]
pub fn fcmp_lt(a: u32, b: u32) -> bool {
    f(a) < f(b)
}

/// `fcmp_le`.
#[inline]
pub fn fcmp_le(a: u32, b: u32) -> bool {
    f(a) <= f(b)
}

/// `fcmp_gt`.
#[inline]
pub fn fcmp_gt(a: u32, b: u32) -> bool {
    f(a) > f(b)
}

/// `fcmp.ge` (dialect): false if either is NaN.
#[inline]
pub fn fcmp_ge(a: u32, b: u32) -> bool {
    f(a) >= f(b)
}

/// `fcmp_ord`: neither is NaN.
#[inline]
pub fn fcmp_ord(a: u32, b: u32) -> bool {
    !f(a).is_nan() && !f(b).is_nan()
}

/// `fcmp_unord`: either is NaN.
#[inline]
pub fn fcmp_unord(a: u32, b: u32) -> bool {
    f(a).is_nan() || f(b).is_nan()
}
