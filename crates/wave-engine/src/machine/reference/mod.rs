//! [`Behaviour::WaveEmu`](super::Behaviour): the machine runs a kernel as `wave-emu` 0.1.2 does,
//! departures from the spec included, so that its memory, traps and statistics
//! ([`ReferenceStats`](super::ReferenceStats)) come out as the reference's.
//!
//! - `control`: the reference's frames and structured control flow;
//! - `step`: one instruction, with the reference's guard rules (`@p0`, guarded sync
//!   instructions and halts, guarded structured instructions);
//! - `barrier`: its release rule (the release itself is spec mode's), and the deadlock when a
//!   wave has halted;
//! - `rules`: [`WaveEmuRules`], the machine's [`ControlRules`](super::rules::ControlRules) for
//!   this mode: one instruction per round-robin pick, its instruction limit, its end of a wave
//!   with nothing left to run, and its barrier rule;
//! - `departure`: what a view is told when a step does what the spec would not;
//! - `message`: the reference's error text for a trap.
//!
//! The run loop and the scheduler are the machine's own, generic over the rules: spec mode never
//! enters this module, and its copy of the loop has nothing of this mode in it.

mod barrier;
mod control;
mod departure;
mod message;
mod rules;
mod step;

pub use departure::{Departure, DepartureEvent};
pub use message::{wave_emu_error, wave_emu_out_of_bounds};
pub(super) use rules::WaveEmuRules;
