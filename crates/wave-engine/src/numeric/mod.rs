//! Per-lane numeric semantics: pure functions on 32-bit register bits.
//!
//! Bit-identical to the reference emulator (`wave-emu`) except where the playground commits to the
//! spec instead: `iclamp`/`fclamp` with `lo > hi` (or a NaN bound) return a documented value
//! instead of panicking (docs/spec-departures.md, "clamp with crossed bounds"). Every function is
//! `#[inline]` and panic-free for every input, so the machine can call it inside its per-op lane
//! loops and let them vectorise.
//!
//! This is the one home of each operation's arithmetic: the machine's general dispatch
//! (`machine/exec.rs`) and its whole-row fast paths (`machine/full_rows.rs`) call these very
//! functions, and `tests/numeric_oracle.rs` checks them against `wave-emu`.
//!
//! One file per job: [`int`], [`bitwise`], [`float`] (f32), [`fp16`], [`bf16`], [`fp64`] (register
//! pairs), [`compare`] and [`convert`].

pub mod bf16;
pub mod bitwise;
pub mod compare;
pub mod convert;
pub mod float;
pub mod fp16;
pub mod fp64;
pub mod int;

#[cfg(test)]
mod tests;
