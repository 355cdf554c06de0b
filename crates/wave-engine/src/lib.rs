//! `wave-engine`: the WAVE ISA front end and a spec-correct SIMT machine.
//!
//! std only: nothing here knows about browsers, so the same code runs natively (`wavesim`, tests,
//! benchmarks) and in the playground's wasm.
//!
//! API boundary: source in through [`compile`] (or a [`compile::CompileJob`] a few lines at a
//! time), a validated [`program::Program`] out, run by a [`machine::Machine`] configured from a
//! [`LaunchSpec`]; the machine is read through its views (waves, lanes, frames, memory,
//! statistics, history, events), and two runs are set side by side by [`compare`] (their
//! measures, their device memory). Around them: the `.wbin` binary ([`wbin`]), the readers of
//! numbers ([`numbers`]) and values ([`numeric`]), and the editor's tables ([`syntax`]). The
//! passes between (lexing, parsing, lowering, validation) and the machine's insides are private.

// Everything the API above does not name is `pub(crate)` at most, so a `pub` says "API".
#![warn(unreachable_pub)]

pub mod compare;
pub mod compile;
pub mod diagnostic;
pub mod instr;
mod launch_spec;
mod lower;
pub mod machine;
pub mod numbers;
pub mod numeric;
mod ops;
pub mod program;
pub mod syntax;
mod validate;
pub mod wbin;

#[cfg(all(test, not(target_arch = "wasm32")))]
mod never_panics_tests;

pub use compile::{compile, Compiled};
pub use diagnostic::{Diagnostic, Severity};
pub use launch_spec::{LaunchErrors, LaunchField, LaunchSpec};
pub use syntax::{highlight, TokenClass};
