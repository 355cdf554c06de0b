//! `wave-engine`: the WAVE ISA front end and a spec-correct SIMT machine.
//!
//! std only: nothing here knows about browsers, so the same code runs natively (`wavesim`, tests,
//! benchmarks) and in the playground's wasm.

pub mod compile;
pub mod diagnostic;
pub mod instr;
pub mod lower;
pub mod machine;
pub mod numbers;
pub mod numeric;
mod ops;
pub mod program;
pub mod syntax;
pub mod validate;
pub mod wbin;

pub use compile::{compile, Compiled};
pub use diagnostic::{Diagnostic, Severity};
pub use syntax::{highlight, TokenClass};
