//! [`Behaviour::WaveEmu`](super::Behaviour): the machine runs a kernel as `wave-emu` 0.1.2 does,
//! departures from the spec included, so that its memory, traps and statistics
//! ([`ReferenceStats`](super::ReferenceStats)) come out as the reference's.
//!
//! - `control`: the reference's frames and structured control flow;
//! - `step`: one instruction, with the reference's guard rules (`@p0`, guarded sync
//!   instructions and halts, guarded structured instructions);
//! - `barrier`: its release rule (the release itself is spec mode's), and the deadlock when a
//!   wave has halted;
//! - `run_loop`: one instruction per round-robin pick, its instruction limit and its end of a
//!   wave with nothing left to run;
//! - `departure`: what a view is told when a step does what the spec would not;
//! - `message`: the reference's error text for a trap.
//!
//! Spec mode never enters this module: the machine branches to `run_loop` once per call of its
//! run loop, so the spec loop and its fast paths are unchanged.

pub(super) mod barrier;
mod control;
mod departure;
mod message;
mod run_loop;
mod step;

pub use departure::{Departure, DepartureEvent};
pub use message::{wave_emu_error, wave_emu_out_of_bounds};
