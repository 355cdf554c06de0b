//! The run loop of [`Behaviour::WaveEmu`](super::super::Behaviour): one wave-instruction per
//! round-robin pick, as wave-emu's core runs a workgroup (ISA notes §5).
//!
//! What it keeps from the reference, beyond the instructions themselves:
//! - a wave whose active mask is empty with no frame open ends at its next pick, a step that
//!   counts toward the instruction limit but not in the statistics;
//! - the instruction limit is tested after the step that passes it, so that step has run (and
//!   written memory) when the trap is raised;
//! - a barrier is released as soon as the reference's rule allows (`super::barrier`), and
//!   counted once per release.
//!
//! None of spec mode's fast paths run here (lockstep stretches, groups, full rows): a masked-off
//! step must be counted and must keep its place in the round-robin order, and the frames differ.
//! The machine's invariants for `unsafe` are the spec loop's: the code is the machine's
//! validated code and the waves its current workgroup's.

use super::super::event::EventSink;
use super::super::exec;
use super::super::run_loop::Outcome;
use super::super::stats::ReferenceCounts;
use super::super::trap::{Trap, TrapKind};
use super::super::wave::WaveStatus;
use super::super::workgroup::{pick_from, Workgroup};
use super::super::{Machine, State, Stop};
use super::{barrier, control, step};
use crate::instr::Op;

impl Machine {
    /// Runs at most `max_steps` steps of the current workgroup the reference's way. Returns how
    /// many ran.
    pub(in crate::machine) fn reference_workgroup(
        &mut self,
        max_steps: u64,
        breakpoints: &[bool],
        events: &mut dyn EventSink,
    ) -> (u64, Outcome) {
        let Machine {
            code,
            launch,
            device,
            workgroup,
            stats,
            state,
            parked,
            avx2_fma,
            ..
        } = self;
        let Workgroup {
            index: workgroup_index,
            id,
            waves,
            local,
            next_pick,
            executed,
        } = workgroup;
        let mut env = exec::Env {
            device,
            local,
            workgroup_id: *id,
            workgroup_size: launch.workgroup,
            grid_size: launch.grid,
            num_waves: waves.len() as u32,
            avx2_fma: *avx2_fma,
            counts: ReferenceCounts::default(),
        };
        let code = code.instrs();
        let budget = launch.max_instructions;
        let mut ran = 0u64;
        let mut active_sum = 0u64;
        let mut slots_sum = 0u64;
        let outcome = loop {
            if ran == max_steps {
                break Ok(Outcome::StepsUsed);
            }
            let Some(index) = pick_from(waves, *next_pick) else {
                break Ok(Outcome::NoWaveReady);
            };
            let pc = waves[index].pc;
            let at_breakpoint =
                !breakpoints.is_empty() && breakpoints.get(pc as usize).copied().unwrap_or(false);
            if at_breakpoint && *parked != Some((index, pc)) {
                *parked = Some((index, pc));
                let wave = index as u32;
                break Ok(Outcome::Stopped(Stop::Breakpoint { wave, pc }));
            }
            *parked = None;
            *next_pick = if index + 1 == waves.len() {
                0
            } else {
                index + 1
            };
            let trap = |kind| (index, kind, None, pc);
            let wave = &mut waves[index];
            if wave.active == 0 && wave.stack.is_empty() {
                control::end_wave(wave, 0, pc, events);
                ran += 1;
                *executed += 1;
            } else {
                let Some(instr) = code.get(pc as usize) else {
                    break Err(trap(TrapKind::RanOffEnd));
                };
                let active = u64::from(wave.active.count_ones());
                let slots = u64::from(wave.present.count_ones());
                // SAFETY: `instr` is one of the machine's validated instructions and `wave` one of
                // its workgroup's waves (see the module's notes).
                let result = unsafe { step::step(wave, instr, &mut env, events) };
                if let Some(record) = stats.per_pc.get_mut(pc as usize) {
                    record.count += 1;
                    record.active_lanes += active;
                    record.lane_slots += slots;
                }
                active_sum += active;
                slots_sum += slots;
                ran += 1;
                *executed += 1;
                if let Err(fault) = result {
                    break Err((index, fault.kind, fault.lane, pc));
                }
                if matches!(instr.op, Op::If | Op::Loop) {
                    stats.record_frame_push(wave, instr.op, pc);
                }
            }
            if budget != 0 && *executed > budget {
                break Err(trap(TrapKind::BudgetExceeded { limit: budget }));
            }
            if waves[index].status == WaveStatus::AtBarrier && barrier::is_complete(waves) {
                super::super::workgroup::release_waiting(waves, events);
                stats.barriers += 1;
            }
        };
        stats.reference.add(&env.counts);
        stats.wave_instructions += ran;
        stats.active_lane_instructions += active_sum;
        stats.lane_slots += slots_sum;
        match outcome {
            Ok(outcome) => (ran, outcome),
            Err((wave, kind, lane, pc)) => {
                let trap = Trap {
                    kind,
                    workgroup: *workgroup_index,
                    wave: wave as u32,
                    lane,
                    pc,
                };
                *state = State::Trapped(trap);
                (ran, Outcome::Stopped(Stop::Trap(trap)))
            }
        }
    }
}
