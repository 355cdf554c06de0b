//! [`ControlRules`] of [`Behaviour::WaveEmu`](super::super::Behaviour): one wave-instruction per
//! round-robin pick, as wave-emu's core runs a workgroup (ISA notes §5), on the machine's shared
//! run loop.
//!
//! What it keeps from the reference, beyond the instructions themselves (`super::step`):
//! - a wave whose active mask is empty with no frame open ends at its next pick, a step that
//!   counts toward the instruction limit but not in the statistics;
//! - the instruction limit is tested after the step that passes it, so that step has run (and
//!   written memory) when the trap is raised;
//! - a barrier is released as soon as the reference's rule allows (`super::barrier`), and
//!   counted once per release; waves that can never be released are a deadlock trap (D18).
//!
//! None of spec mode's fast paths run here (lockstep stretches, groups, full rows): a masked-off
//! step must be counted and must keep its place in the round-robin order, and the frames differ.
//! The machine's invariants for `unsafe` are the run loop's: the code is the machine's validated
//! code and the waves its current workgroup's.

use super::super::event::EventSink;
use super::super::exec::Env;
use super::super::rules::ControlRules;
use super::super::run_loop::{Pass, TrapAt};
use super::super::trap::TrapKind;
use super::super::wave::{Wave, WaveStatus};
use super::super::workgroup::release_waiting;
use super::{barrier, control, step};
use crate::instr::Op;

/// What wave-emu 0.1.2 does where it departs from the spec.
pub(in crate::machine) struct WaveEmuRules;

impl ControlRules for WaveEmuRules {
    /// Runs one step of wave `index`: its instruction, or the end of a wave left with no lane and
    /// no frame. Inlined into the loop, like spec mode's, so that the loop's counters stay in
    /// registers rather than behind a call.
    #[inline(always)]
    fn run_pick(
        pass: &mut Pass<'_>,
        index: usize,
        pc: u32,
        _at_breakpoint: bool,
        env: &mut Env,
        events: &mut dyn EventSink,
    ) -> Result<(), TrapAt> {
        pass.pick = if index + 1 == pass.waves.len() {
            0
        } else {
            index + 1
        };
        let trap = |kind| TrapAt {
            wave: index,
            kind,
            lane: None,
            pc,
        };
        let wave = &mut pass.waves[index];
        if wave.active == 0 && wave.stack.is_empty() {
            control::end_wave(wave, 0, pc, events);
            pass.ran += 1;
            *pass.executed += 1;
        } else {
            let Some(instr) = pass.code.get(pc as usize) else {
                return Err(trap(TrapKind::RanOffEnd));
            };
            let active = u64::from(wave.active.count_ones());
            let slots = u64::from(wave.present.count_ones());
            // SAFETY: `instr` is one of the machine's validated instructions and `wave` one of
            // its workgroup's waves (see the module's notes).
            let result = unsafe { step::step(wave, instr, env, events) };
            pass.account(pc, 1, active, slots);
            if let Err(fault) = result {
                return Err(TrapAt {
                    wave: index,
                    kind: fault.kind,
                    lane: fault.lane,
                    pc,
                });
            }
            if matches!(instr.op, Op::If | Op::Loop) {
                pass.stats
                    .record_frame_push(&pass.waves[index], instr.op, pc);
            }
        }
        if pass.budget != 0 && *pass.executed > pass.budget {
            let limit = pass.budget;
            return Err(trap(TrapKind::BudgetExceeded { limit }));
        }
        if pass.waves[index].status == WaveStatus::AtBarrier
            && Self::release_barrier(pass.waves, events)
        {
            pass.stats.barriers += 1;
        }
        Ok(())
    }

    /// When every wave the reference records waits, halted ones included (`super::barrier`).
    fn release_barrier<S: EventSink + ?Sized>(waves: &mut [Wave], events: &mut S) -> bool {
        if barrier::is_complete(waves) {
            release_waiting(waves, events);
            true
        } else {
            false
        }
    }

    /// The first wave that waits: once a wave has halted, the release never comes (D18).
    fn deadlocked_wave(waves: &[Wave]) -> Option<usize> {
        Some(barrier::first_waiting(waves))
    }
}
