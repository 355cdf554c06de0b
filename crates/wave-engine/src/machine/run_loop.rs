//! The hot loop: executes scheduled instructions of the current workgroup, round-robin, until no
//! wave is ready, the step allowance is used up, or something stops the machine.
//!
//! Everything per instruction is kept to what the semantics need: one round-robin pick, one
//! breakpoint test (skipped when there are none), the budget test, one `Copy` instruction fetch,
//! one per-pc statistics record, the instruction itself. Totals are summed in locals and written
//! back once; the stack-depth and divergence statistics are only looked at after `if` / `loop`.

use super::event::EventSink;
use super::exec;
use super::lockstep;
use super::trap::{Trap, TrapKind};
use super::wave::WaveStatus;
use super::workgroup::{pick_from, release_barrier_if_complete, Workgroup};
use super::{Machine, State, Stop};
use crate::instr::Op;

/// Why [`Machine::run_workgroup`] came back.
pub(super) enum Outcome {
    /// No wave of the workgroup is ready: it is done, or every live wave waits at a barrier.
    NoWaveReady,
    /// `max_steps` instructions ran.
    StepsUsed,
    /// A breakpoint or a trap.
    Stopped(Stop),
}

impl Machine {
    /// Runs at most `max_steps` instructions of the current workgroup. Returns how many ran.
    ///
    /// Not generic (events go through `dyn`, touched only by control flow), so the loop is
    /// compiled once, in this crate, with this crate's optimisation level — the playground builds
    /// for size everywhere else.
    ///
    /// On x86-64 CPUs with AVX2, FMA, POPCNT, BMI1/2 and LZCNT (checked once per machine) the loop
    /// runs in a copy compiled for them: 8-lane vector ops, hardware `fma` and `popcnt`. Results are the
    /// same bit for bit (integer and IEEE operations do not depend on the vector width; Rust never
    /// contracts `a * b + c` into an `fma` on its own); only the speed differs.
    pub(super) fn run_workgroup(
        &mut self,
        max_steps: u64,
        breakpoints: &[bool],
        events: &mut dyn EventSink,
    ) -> (u64, Outcome) {
        #[cfg(target_arch = "x86_64")]
        if self.avx2_fma.is_some() {
            // SAFETY: an `Avx2Fma` exists only when the CPU reported every feature that
            // `run_workgroup_avx2` is compiled for (`Avx2Fma::detect`).
            return unsafe { self.run_workgroup_avx2(max_steps, breakpoints, events) };
        }
        self.workgroup_loop(max_steps, breakpoints, events)
    }

    /// [`Machine::workgroup_loop`] compiled for AVX2, FMA, POPCNT, BMI1/2 and LZCNT.
    ///
    /// # Safety
    /// The CPU has every one of those features (an [`Avx2Fma`](super::cpu::Avx2Fma) exists).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma,popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn run_workgroup_avx2(
        &mut self,
        max_steps: u64,
        breakpoints: &[bool],
        events: &mut dyn EventSink,
    ) -> (u64, Outcome) {
        self.workgroup_loop(max_steps, breakpoints, events)
    }

    /// The loop itself, inlined into both copies (the portable one and the AVX2 one).
    #[inline(always)]
    fn workgroup_loop(
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
        let code = code.instrs();
        let limit = launch.max_instructions;
        let mut env = exec::Env {
            device,
            local,
            workgroup_id: *id,
            workgroup_size: launch.workgroup,
            grid_size: launch.grid,
            num_waves: waves.len() as u32,
            avx2_fma: *avx2_fma,
        };
        let wave_count = waves.len();
        let full_slots = waves.first().map_or(0, |wave| wave.width as u64);
        let last_slots = waves
            .last()
            .map_or(0, |wave| wave.present.count_ones() as u64);
        debug_assert!(waves
            .iter()
            .take(wave_count.saturating_sub(1))
            .all(|wave| wave.present.count_ones() as u64 == full_slots));
        let mut pick = *next_pick;
        let mut ran = 0u64;
        let (mut active_sum, mut slots_sum) = (0u64, 0u64);
        // `Some(active lanes)` while every wave is known to be ready at the same pc, with those
        // active lanes in all: the last group was the whole workgroup and its instruction kept
        // it in lockstep.
        let mut whole_workgroup: Option<u64> = None;
        // Lane slots of `count` waves ending before wave `ran_to`: every wave but the last has
        // all its lanes; the last may be partial.
        let lane_slots = |count: u64, ran_to: usize| {
            if ran_to == wave_count {
                (count - 1) * full_slots + last_slots
            } else {
                count * full_slots
            }
        };
        // Records `count` executions of the instruction at `pc` (a group's, or a stretch's last
        // partial round) in the per-pc statistics and the run's totals.
        macro_rules! account {
            ($pc:expr, $count:expr, $active:expr, $slots:expr) => {{
                let (count, active, slots): (u64, u64, u64) = ($count, $active, $slots);
                if let Some(record) = stats.per_pc.get_mut($pc as usize) {
                    record.count += count;
                    record.active_lanes += active;
                    record.lane_slots += slots;
                }
                active_sum += active;
                slots_sum += slots;
                ran += count;
                *executed += count;
            }};
        }
        // `Err` carries a trap: (wave, kind, lane, pc).
        let outcome = loop {
            if ran == max_steps {
                break Ok(Outcome::StepsUsed);
            }
            let Some(w) = pick_from(waves, pick) else {
                break Ok(Outcome::NoWaveReady);
            };
            let pc = waves[w].pc;
            let at_breakpoint =
                !breakpoints.is_empty() && breakpoints.get(pc as usize).copied().unwrap_or(false);
            if at_breakpoint && *parked != Some((w, pc)) {
                *parked = Some((w, pc));
                break Ok(Outcome::Stopped(Stop::Breakpoint { wave: w as u32, pc }));
            }
            *parked = None;
            if limit != 0 && *executed >= limit {
                break Err((w, TrapKind::BudgetExceeded { limit }, None, pc));
            }
            let Some(instr) = code.get(pc as usize) else {
                break Err((w, TrapKind::RanOffEnd, None, pc));
            };
            // The next waves in round-robin order that stand at this same instruction run it
            // now, as one group, one after another in wave order: exactly the order round-robin
            // would give them (a wave changes only its own registers and status; memory is
            // touched in the same order; no barrier can release while a later member is still
            // ready). The group pays for one pick, one budget test and one statistics record;
            // register-only instructions also share one dispatch. Not past a breakpoint, the
            // step allowance or the budget.
            // Active lanes are counted as they stand before the instruction (control flow
            // changes them); lane slots follow from the group's extent (below).
            let lanes = |wave: &super::wave::Wave| wave.active.count_ones() as u64;
            let mut active = lanes(&waves[w]);
            let mut group_end = w + 1;
            if !at_breakpoint {
                let budget_left = if limit == 0 {
                    u64::MAX
                } else {
                    limit - *executed
                };
                let room = (max_steps - ran).min(budget_left).min(wave_count as u64) as usize;
                if let Some(whole_active) = whole_workgroup.filter(|_| w == 0 && room == wave_count)
                {
                    // Every wave is still ready at this same pc (see `whole_workgroup`).
                    active = whole_active;
                    group_end = wave_count;
                }
                while group_end < wave_count
                    && group_end - w < room
                    && waves[group_end].status == WaveStatus::Ready
                    && waves[group_end].pc == pc
                {
                    active += lanes(&waves[group_end]);
                    group_end += 1;
                }
            }
            pick = if group_end == wave_count {
                0
            } else {
                group_end
            };
            let members = group_end - w;
            // After an instruction that moves every wave of the workgroup to the next pc and
            // changes no mask or status, the next group is the whole workgroup again, with the
            // same active lanes: the scan above can be skipped.
            whole_workgroup = (w == 0 && members == wave_count && exec::keeps_lockstep(instr.op))
                .then_some(active);
            // The whole workgroup standing together at an instruction that keeps it in lockstep
            // runs from there in `run_lockstep` for as long as that lasts (see `lockstep.rs`):
            // one pass of this loop for a whole loop body, iterations included. Only as far as
            // the step allowance and the budget reach (whole rounds of the workgroup), and up to
            // the next breakpoint.
            if w == 0 && members == wave_count && !at_breakpoint && lockstep::may_start(instr.op) {
                let budget_left = if limit == 0 {
                    u64::MAX
                } else {
                    limit - *executed
                };
                let max_rounds = (max_steps - ran).min(budget_left) / members as u64;
                if max_rounds >= 2 {
                    let count = members as u64;
                    let slots = lane_slots(count, wave_count);
                    let stretch = lockstep::run_lockstep(
                        waves,
                        code,
                        max_rounds,
                        breakpoints,
                        &mut env,
                        events,
                        &mut stats.per_pc,
                        (active, slots),
                    );
                    let rounds = stretch.rounds;
                    active_sum += active * rounds;
                    slots_sum += slots * rounds;
                    ran += count * rounds;
                    *executed += count * rounds;
                    if let Some((at, member, error)) = stretch.fault {
                        // Members 0..=member ran the faulting instruction.
                        let count = member as u64 + 1;
                        let active: u64 = waves[..=member].iter().map(lanes).sum();
                        let slots = lane_slots(count, member + 1);
                        account!(at, count, active, slots);
                        break Err((member, error.kind, error.lane, at));
                    }
                    // Nothing ran when the first instruction would split the waves (a `break`
                    // that takes lanes out, say): it runs below, like any control flow.
                    if rounds > 0 {
                        whole_workgroup = Some(active);
                        continue;
                    }
                }
            }
            let mut fault = None;
            let mut executed_here = members;
            if members > 1 && exec::is_register_only(instr.op) {
                let grouped = exec::step_group(&mut waves[w..group_end], instr, &env);
                debug_assert!(grouped, "register-only instructions run as a group");
            } else {
                for member in w..group_end {
                    let wave = &mut waves[member];
                    let result = exec::step(wave, instr, &mut env, events);
                    if matches!(instr.op, Op::If | Op::Loop) {
                        stats.max_stack_depth = stats.max_stack_depth.max(wave.stack.len() as u32);
                        // An `if` whose then and else sides are both non-empty (the frame it
                        // just pushed).
                        if instr.op == Op::If {
                            if let Some(frame) = wave.stack.last().filter(|f| f.origin == pc) {
                                if frame.then_mask != 0 && frame.else_mask != 0 {
                                    stats.divergent_branches += 1;
                                }
                            }
                        }
                    }
                    if let Err(error) = result {
                        // The members after this one did not run: their lanes are unchanged.
                        for later in &waves[member + 1..group_end] {
                            active -= lanes(later);
                        }
                        executed_here = member - w + 1;
                        fault = Some((member, error));
                        break;
                    }
                    if wave.status != WaveStatus::Ready
                        && release_barrier_if_complete(waves, events)
                    {
                        stats.barriers += 1;
                    }
                }
            }
            // Statistics and counters for the members that ran.
            let count = executed_here as u64;
            account!(pc, count, active, lane_slots(count, w + executed_here));
            if let Some((member, error)) = fault {
                break Err((member, error.kind, error.lane, pc));
            }
        };
        *next_pick = pick;
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
