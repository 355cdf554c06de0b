//! The points where running a workgroup by the reference emulator's rules departs from running
//! it by the spec's, gathered in one strategy trait.
//!
//! The run loop ([`Machine::workgroup_loop`](super::Machine)) and the scheduler's transitions
//! between picks ([`Machine::advance_to_ready_wave`](super::Machine::advance_to_ready_wave)) are
//! written once, generic over [`ControlRules`]: the set-up, the round-robin pick, breakpoints,
//! traps and the statistics are the same in both behaviours. A [`Behaviour`](super::Behaviour)
//! selects the implementation once per call: `SpecRules` in `run_loop`, with spec mode's fast
//! paths, or `WaveEmuRules` in `machine::reference`. Spec mode monomorphises to a loop with
//! nothing of the other mode in it, so its hot path pays nothing for the choice.

use super::event::EventSink;
use super::exec::Env;
use super::run_loop::{Pass, TrapAt};
use super::wave::Wave;

/// What one behaviour does where the two part.
pub(super) trait ControlRules {
    /// Runs what one round-robin pick runs: wave `first`, ready at `pc` (a breakpoint when
    /// `at_breakpoint`, where the machine is parked), and whatever else the rules let run with
    /// it. Accounts for it in `pass`, moves the round-robin on (`Pass::pick`) and tests the
    /// workgroup's instruction limit.
    fn run_pick(
        pass: &mut Pass<'_>,
        first: usize,
        pc: u32,
        at_breakpoint: bool,
        env: &mut Env,
        events: &mut dyn EventSink,
    ) -> Result<(), TrapAt>;

    /// Releases the waves that wait at a barrier when the rule allows it now; whether it did.
    fn release_barrier<S: EventSink + ?Sized>(waves: &mut [Wave], events: &mut S) -> bool;

    /// No wave is ready, the workgroup is not done, and the barrier some waves wait at cannot be
    /// released: the wave a deadlock trap names, or `None` when the rules have no such trap.
    fn deadlocked_wave(waves: &[Wave]) -> Option<usize>;
}
