//! Departures: the places where a machine in [`Behaviour::WaveEmu`](super::super::Behaviour)
//! does something the spec's rule for the same instruction would not, so a view can say so at
//! the step where it happens.
//!
//! A departure is judged at the instruction, from the wave's state in this mode: it says what the
//! spec's rule would have done differently from that state. It is not a comparison with a
//! separate spec run, whose state may have parted from this one many steps earlier.

/// One way the reference emulator departs from the spec (the D numbers of the ISA notes, §9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Departure {
    /// D1: lanes that broke out of a loop inside an `if` came back at its `endif` (or `else`) and
    /// run the rest of the iteration; the spec keeps them waiting until the loop ends.
    BreakRevived,
    /// D2: a `continue` left no lane active and jumped back to the top of its loop with none;
    /// the spec goes on to the loop's end. Repeated, it runs until the instruction limit.
    EmptyContinueJumpsBack,
    /// D3: some lanes continued and the *other* lanes were sent back to the top of the loop,
    /// skipping the rest of their iteration; the continuing lanes wait for `endloop`.
    ContinueSentOthersBack,
    /// D6: `halt` (or a `return` with no call to go back to) ended the whole wave, lanes waiting
    /// in enclosing constructs or outside the guard included; the spec ends only the lanes that
    /// run it.
    WholeWaveHalt,
    /// D7: lanes that a guarded `halt` had taken out came back at an `endif`, `else` or
    /// `endloop`; in the spec they stay halted.
    PredicatedHaltRevived,
    /// D8: a guarded structured instruction (`@p break q`, `@p continue q`, …) changed the
    /// active mask and the reference put the old mask back, keeping its frame changes and jumps.
    GuardedControlMaskRestored,
    /// D9: an `@p0` guard was ignored: the instruction ran on lanes where p0 is false.
    P0Unconditional,
    /// D12: the instruction ran with no active lane; the spec skips a path no lane takes, so it
    /// would not have run it (a `barrier` or `halt` among such instructions still acts). Not
    /// reported at the `else`, `endif` or `endloop` of a construct entered with lanes: spec mode
    /// jumps to those and runs them with no lane too.
    RanWithNoLane,
    /// A guarded `call` whose guard no active lane meets called anyway (it is not a sync
    /// instruction in the reference); the spec does nothing.
    GuardedCallWithNoLane,
    /// A `return` with `if`/`loop` frames still open since its `call` went back to the caller and
    /// left them open; the spec stops with a trap.
    ReturnLeftFramesOpen,
}

impl Departure {
    /// Every departure, in declaration order.
    pub const ALL: [Departure; 10] = [
        Departure::BreakRevived,
        Departure::EmptyContinueJumpsBack,
        Departure::ContinueSentOthersBack,
        Departure::WholeWaveHalt,
        Departure::PredicatedHaltRevived,
        Departure::GuardedControlMaskRestored,
        Departure::P0Unconditional,
        Departure::RanWithNoLane,
        Departure::GuardedCallWithNoLane,
        Departure::ReturnLeftFramesOpen,
    ];

    /// A stable name for views and traces: "break-revived", "empty-continue-jumps-back",
    /// "continue-sent-others-back", "whole-wave-halt", "predicated-halt-revived",
    /// "guarded-control-mask-restored", "p0-unconditional", "ran-with-no-lane",
    /// "guarded-call-with-no-lane", "return-left-frames-open".
    pub fn name(self) -> &'static str {
        match self {
            Departure::BreakRevived => "break-revived",
            Departure::EmptyContinueJumpsBack => "empty-continue-jumps-back",
            Departure::ContinueSentOthersBack => "continue-sent-others-back",
            Departure::WholeWaveHalt => "whole-wave-halt",
            Departure::PredicatedHaltRevived => "predicated-halt-revived",
            Departure::GuardedControlMaskRestored => "guarded-control-mask-restored",
            Departure::P0Unconditional => "p0-unconditional",
            Departure::RanWithNoLane => "ran-with-no-lane",
            Departure::GuardedCallWithNoLane => "guarded-call-with-no-lane",
            Departure::ReturnLeftFramesOpen => "return-left-frames-open",
        }
    }

    /// One plain sentence on what wave-emu did here that the spec would not.
    pub fn sentence(self) -> &'static str {
        match self {
            Departure::BreakRevived => {
                "wave-emu brings lanes that broke out of the loop back at this point; the spec keeps them waiting until the loop ends"
            }
            Departure::EmptyContinueJumpsBack => {
                "wave-emu jumps back to the top of the loop with no lane active; the spec goes on to the loop's end"
            }
            Departure::ContinueSentOthersBack => {
                "wave-emu sends the lanes that did not continue back to the top of the loop; the spec lets them finish the iteration"
            }
            Departure::WholeWaveHalt => {
                "wave-emu ends the whole wave here, lanes waiting elsewhere included; the spec ends only the lanes that run it"
            }
            Departure::PredicatedHaltRevived => {
                "wave-emu brings back lanes that a guarded halt took out; in the spec they stay halted"
            }
            Departure::GuardedControlMaskRestored => {
                "wave-emu puts back the active mask this guarded instruction changed, keeping its other effects"
            }
            Departure::P0Unconditional => {
                "wave-emu reads @p0 as no guard: the instruction runs where p0 is false too"
            }
            Departure::RanWithNoLane => {
                "no lane is active: wave-emu runs this instruction anyway, where the spec skips the path"
            }
            Departure::GuardedCallWithNoLane => {
                "wave-emu calls although no active lane meets the guard; the spec does nothing"
            }
            Departure::ReturnLeftFramesOpen => {
                "wave-emu returns with if/loop frames still open since the call; the spec stops with a trap"
            }
        }
    }
}

/// A departure at one step: which wave, at which instruction, and the lanes it concerns (the
/// lanes revived, sent back or ended; for [`Departure::RanWithNoLane`], none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepartureEvent {
    pub wave: u32,
    /// Index of the instruction that departed.
    pub pc: u32,
    pub mask: u64,
    pub departure: Departure,
}
