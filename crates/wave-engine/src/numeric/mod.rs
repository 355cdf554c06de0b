//! Per-lane numeric semantics: pure functions on 32-bit register bits.
//!
//! Bit-identical to the reference emulator (`wave-emu`) except where the playground commits to the
//! spec instead: `iclamp`/`fclamp` with `lo > hi` (or a NaN bound) return a documented value
//! instead of panicking (wave-isa.md D11). Every function is `#[inline]` and panic-free for every
//! input, so the machine can call it inside its per-op lane loops and let them vectorise.
//!
//! One file per job: [`int`], [`bitwise`], [`float`] (f32), [`fp16`], [`bf16`], [`fp64`] (register
//! pairs), [`compare`] and [`convert`]; [`dispatch`] maps an [`crate::instr::Op`] to them.

pub mod bf16;
pub mod bitwise;
pub mod compare;
pub mod convert;
pub mod dispatch;
pub mod float;
pub mod fp16;
pub mod fp64;
pub mod int;

#[cfg(test)]
mod tests;

pub use dispatch::{
    binary, compare, f64_binary, f64_ternary, f64_unary, from_pair, quaternary, shape, ternary,
    to_pair, unary, Shape,
};
