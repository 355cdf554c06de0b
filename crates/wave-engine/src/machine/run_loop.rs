//! The hot loop: executes scheduled instructions of the current workgroup, round-robin, until no
//! wave is ready, the step allowance is used up, or something stops the machine.
//!
//! The loop is generic over the [`ControlRules`] of the machine's behaviour: it makes the pick,
//! honours breakpoints and writes back the statistics and traps, and the rules run what the pick
//! runs. In spec mode that is the fast path below ([`SpecRules`]).
//!
//! Everything per instruction is kept to what the semantics need: one round-robin pick, one
//! breakpoint test (skipped when there are none), the budget test, one `Copy` instruction fetch,
//! one per-pc statistics record, the instruction itself. Totals are summed in the [`Pass`] and
//! written back once; the stack-depth and divergence statistics are only looked at after `if` and
//! `loop`.

use super::event::EventSink;
use super::exec;
use super::lockstep::{self, Stretch};
use super::reference::WaveEmuRules;
use super::rules::ControlRules;
use super::stats::Stats;
use super::trap::{Trap, TrapKind};
use super::wave::{Wave, WaveStatus};
use super::workgroup::{pick_from, release_barrier_if_complete, Workgroup};
use super::{Machine, State, Stop};
use crate::instr::{Instr, Op};

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
        if self.behaviour == super::Behaviour::WaveEmu {
            return self.reference_workgroup(max_steps, breakpoints, events);
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2_fma.is_some() {
            // SAFETY: an `Avx2Fma` exists only when the CPU reported every feature that
            // `run_workgroup_avx2` is compiled for (`Avx2Fma::detect`).
            return unsafe { self.run_workgroup_avx2(max_steps, breakpoints, events) };
        }
        self.workgroup_loop::<SpecRules>(max_steps, breakpoints, events)
    }

    /// The loop by the reference's rules ([`WaveEmuRules`]): compiled once, for the portable
    /// feature level, and kept out of [`Machine::run_workgroup`] so that the spec copies there
    /// stay as they are.
    #[inline(never)]
    fn reference_workgroup(
        &mut self,
        max_steps: u64,
        breakpoints: &[bool],
        events: &mut dyn EventSink,
    ) -> (u64, Outcome) {
        self.workgroup_loop::<WaveEmuRules>(max_steps, breakpoints, events)
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
        self.workgroup_loop::<SpecRules>(max_steps, breakpoints, events)
    }

    /// The loop itself, inlined into each copy (the portable one and the AVX2 one of spec mode,
    /// the reference's): pick a wave, stop before a breakpoint unless parked there, and let the
    /// rules run the pick; they account for what they ran.
    #[inline(always)]
    fn workgroup_loop<R: ControlRules>(
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
            counts: super::stats::ReferenceCounts::default(),
        };
        let mut pass = Pass {
            slots: LaneSlots::of(waves),
            waves,
            code: code.instrs(),
            breakpoints,
            stats,
            parked,
            executed,
            budget: launch.max_instructions,
            max_steps,
            pick: *next_pick,
            whole_workgroup: None,
            ran: 0,
            active_sum: 0,
            slots_sum: 0,
        };
        let outcome = loop {
            if pass.ran == max_steps {
                break Ok(Outcome::StepsUsed);
            }
            // Pick the next wave round-robin; stop before a breakpoint (unless parked there).
            let Some(first) = pick_from(pass.waves, pass.pick) else {
                break Ok(Outcome::NoWaveReady);
            };
            let pc = pass.waves[first].pc;
            let at_breakpoint =
                !breakpoints.is_empty() && breakpoints.get(pc as usize).copied().unwrap_or(false);
            if at_breakpoint && *pass.parked != Some((first, pc)) {
                *pass.parked = Some((first, pc));
                let wave = first as u32;
                break Ok(Outcome::Stopped(Stop::Breakpoint { wave, pc }));
            }
            *pass.parked = None;
            if let Err(trap) = R::run_pick(&mut pass, first, pc, at_breakpoint, &mut env, events) {
                break Err(trap);
            }
        };
        *next_pick = pass.pick;
        pass.stats.reference.add(&env.counts);
        let ran = pass.finish();
        match outcome {
            Ok(outcome) => (ran, outcome),
            Err(TrapAt {
                wave,
                kind,
                lane,
                pc,
            }) => {
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

/// A trap before the workgroup and the machine state are attached.
pub(super) struct TrapAt {
    pub wave: usize,
    pub kind: TrapKind,
    pub lane: Option<u32>,
    pub pc: u32,
}

/// WAVE spec v0.4: lanes that leave a construct early wait where the spec says, a path no lane
/// takes is skipped, `halt` ends only the lanes that run it (`machine::control`).
pub(super) struct SpecRules;

impl ControlRules for SpecRules {
    /// The pick and the waves after it that stand at the same instruction run it together, as
    /// one group, or from there a lockstep stretch of the whole workgroup runs (see
    /// [`Pass::form_group`] and [`Pass::run_stretch`]). The limit is tested before the
    /// instruction: the one that would pass it does not run.
    #[inline(always)]
    fn run_pick(
        pass: &mut Pass<'_>,
        first: usize,
        pc: u32,
        at_breakpoint: bool,
        env: &mut exec::Env,
        events: &mut dyn EventSink,
    ) -> Result<(), TrapAt> {
        let trap = |kind| TrapAt {
            wave: first,
            kind,
            lane: None,
            pc,
        };
        if pass.budget != 0 && *pass.executed >= pass.budget {
            let limit = pass.budget;
            return Err(trap(TrapKind::BudgetExceeded { limit }));
        }
        let Some(instr) = pass.code.get(pc as usize) else {
            return Err(trap(TrapKind::RanOffEnd));
        };
        let group = pass.form_group(first, pc, at_breakpoint, instr);
        if pass.run_stretch(group, instr, env, events)? {
            return Ok(());
        }
        pass.run_group(group, instr, env, events)
    }

    /// When every live wave waits at a barrier. Finished waves never block.
    #[inline(always)]
    fn release_barrier<S: EventSink + ?Sized>(waves: &mut [Wave], events: &mut S) -> bool {
        release_barrier_if_complete(waves, events)
    }

    /// Never: when no wave is ready and the workgroup is not done, every live wave waits at the
    /// barrier, which then releases, so this is not reached.
    fn deadlocked_wave(_: &[Wave]) -> Option<usize> {
        None
    }
}

/// The waves `first..end` of the workgroup, ready at instruction `pc` with `active` lanes among
/// them (counted as they stand before it runs: control flow changes them), that run it next.
#[derive(Clone, Copy)]
struct Group {
    first: usize,
    end: usize,
    pc: u32,
    active: u64,
    /// `pc` is a breakpoint (the machine is parked there, or the pick would have stopped).
    at_breakpoint: bool,
}

impl Group {
    #[inline(always)]
    fn members(&self) -> usize {
        self.end - self.first
    }
}

/// Lane slots of a workgroup's waves: every wave has `full` lanes but the last, which may be
/// partial.
#[derive(Clone, Copy)]
struct LaneSlots {
    wave_count: usize,
    full: u64,
    last: u64,
}

impl LaneSlots {
    fn of(waves: &[Wave]) -> Self {
        let full = waves.first().map_or(0, |wave| wave.width as u64);
        debug_assert!(waves
            .iter()
            .take(waves.len().saturating_sub(1))
            .all(|wave| wave.present.count_ones() as u64 == full));
        LaneSlots {
            wave_count: waves.len(),
            full,
            last: waves
                .last()
                .map_or(0, |wave| wave.present.count_ones() as u64),
        }
    }

    /// Lane slots of `count` consecutive waves ending before wave `ran_to`.
    #[inline(always)]
    fn of_waves(self, count: u64, ran_to: usize) -> u64 {
        if ran_to == self.wave_count {
            (count - 1) * self.full + self.last
        } else {
            count * self.full
        }
    }
}

#[inline(always)]
fn active_lanes(wave: &Wave) -> u64 {
    wave.active.count_ones() as u64
}

/// One call of the run loop on the current workgroup: the parts of the machine it touches,
/// borrowed apart, and what it has run so far (summed here, written back once by
/// [`Pass::finish`]).
///
/// Invariant, which the `unsafe` calls below rest on: `code` is the machine's validated code
/// ([`Code::instrs`](super::code::Code::instrs): every register operand below
/// `Code::register_file_size`) and `waves` are its current workgroup's, each built with that many
/// registers and a width `LaunchConfig::resolve` accepted (1..=64). A `Pass` is only made in
/// [`Machine::workgroup_loop`], from the machine itself.
pub(super) struct Pass<'r> {
    pub waves: &'r mut [Wave],
    pub code: &'r [Instr],
    breakpoints: &'r [bool],
    pub stats: &'r mut Stats,
    parked: &'r mut Option<(usize, u32)>,
    /// Wave-instructions the workgroup has run: what the budget counts.
    pub executed: &'r mut u64,
    /// Wave-instructions allowed per workgroup (0: no limit).
    pub budget: u64,
    /// This call's step allowance.
    max_steps: u64,
    /// The wave round-robin considers next.
    pub pick: usize,
    /// `Some(active lanes)` while every wave is known to be ready at the same pc, with those
    /// active lanes in all: the last group was the whole workgroup and its instruction kept it
    /// in lockstep.
    whole_workgroup: Option<u64>,
    slots: LaneSlots,
    pub ran: u64,
    active_sum: u64,
    slots_sum: u64,
}

impl Pass<'_> {
    /// Instructions that may still run in this call: the step allowance and the budget.
    #[inline(always)]
    fn room(&self) -> u64 {
        let budget_left = if self.budget == 0 {
            u64::MAX
        } else {
            self.budget - *self.executed
        };
        (self.max_steps - self.ran).min(budget_left)
    }

    /// The group that runs next, from wave `first` (the round-robin pick, ready at `pc`): it
    /// and the waves after it that stand at the same instruction run it now, one after another
    /// in wave order, exactly the order round-robin would give them (a wave changes only its own
    /// registers and status; memory is touched in the same order; no barrier can release while a
    /// later member is still ready). The group pays for one pick, one budget test and one
    /// statistics record. Not past a breakpoint, the step allowance or the budget.
    #[inline(always)]
    fn form_group(&mut self, first: usize, pc: u32, at_breakpoint: bool, instr: &Instr) -> Group {
        let waves = &*self.waves;
        let wave_count = waves.len();
        let mut active = active_lanes(&waves[first]);
        let mut end = first + 1;
        if !at_breakpoint {
            let room = self.room().min(wave_count as u64) as usize;
            if let Some(whole_active) = self
                .whole_workgroup
                .filter(|_| first == 0 && room == wave_count)
            {
                // Every wave is still ready at this same pc (see `whole_workgroup`).
                active = whole_active;
                end = wave_count;
            }
            while end < wave_count
                && end - first < room
                && waves[end].status == WaveStatus::Ready
                && waves[end].pc == pc
            {
                active += active_lanes(&waves[end]);
                end += 1;
            }
        }
        self.pick = if end == wave_count { 0 } else { end };
        // After an instruction that moves every wave of the workgroup to the next pc and changes
        // no mask or status, the next group is the whole workgroup again, with the same active
        // lanes: the next group can skip the scan above.
        let whole = first == 0 && end == wave_count;
        self.whole_workgroup = (whole && exec::keeps_lockstep(instr.op)).then_some(active);
        Group {
            first,
            end,
            pc,
            active,
            at_breakpoint,
        }
    }

    /// When `group` is the whole workgroup standing together at an instruction that keeps it in
    /// lockstep, runs from there in [`lockstep::run_lockstep`] for as long as that lasts: one
    /// pass of this loop for a whole loop body, iterations included. Only as far as the step
    /// allowance and the budget reach (whole rounds of the workgroup), and up to the next
    /// breakpoint. `Ok(true)` when it ran something; `Ok(false)` when the group is to run as
    /// usual (nothing ran: not a whole workgroup, too little room, or a first instruction that
    /// would split the waves, a `break` that takes lanes out, say).
    #[inline(always)]
    fn run_stretch(
        &mut self,
        group: Group,
        instr: &Instr,
        env: &mut exec::Env,
        events: &mut dyn EventSink,
    ) -> Result<bool, TrapAt> {
        let wave_count = self.waves.len();
        let members = group.members();
        if group.first != 0
            || members != wave_count
            || group.at_breakpoint
            || !lockstep::may_start(instr.op)
        {
            return Ok(false);
        }
        let max_rounds = self.room() / members as u64;
        if max_rounds < 2 {
            return Ok(false);
        }
        let count = members as u64;
        let slots = self.slots.of_waves(count, wave_count);
        let hardware = env.avx2_fma.is_some();
        let stretch = Stretch {
            waves: self.waves,
            code: self.code,
            env,
            events,
            per_pc: &mut self.stats.per_pc,
            breakpoints: self.breakpoints,
            max_rounds,
            active: group.active,
            slots,
        };
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hardware;
        // SAFETY: the stretch runs the machine's validated code on its workgroup's waves (the
        // invariant of `Pass`); the AVX2 copy only where an `Avx2Fma` says the CPU has its
        // features (`Avx2Fma::detect`).
        let end = unsafe {
            #[cfg(target_arch = "x86_64")]
            if hardware {
                lockstep::run_lockstep_avx2(stretch)
            } else {
                lockstep::run_lockstep_portable(stretch)
            }
            #[cfg(not(target_arch = "x86_64"))]
            lockstep::run_lockstep_portable(stretch)
        };
        // Every round was recorded per pc by the stretch; the totals are counted here.
        let rounds = end.rounds;
        self.active_sum += group.active * rounds;
        self.slots_sum += slots * rounds;
        self.ran += count * rounds;
        *self.executed += count * rounds;
        if let Some((pc, member, fault)) = end.fault {
            // Members 0..=member ran the faulting instruction.
            let count = member as u64 + 1;
            let active = self.waves[..=member].iter().map(active_lanes).sum();
            let slots = self.slots.of_waves(count, member + 1);
            self.account(pc, count, active, slots);
            return Err(TrapAt {
                wave: member,
                kind: fault.kind,
                lane: fault.lane,
                pc,
            });
        }
        if rounds == 0 {
            return Ok(false);
        }
        self.whole_workgroup = Some(group.active);
        Ok(true)
    }

    /// Runs `instr` on the members of `group` in wave order and accounts for them: a
    /// register-only instruction with one dispatch for all ([`exec::step_group`]), anything else
    /// wave by wave, releasing a barrier as soon as its last wave arrives. A fault stops the
    /// group at the faulting wave: the members after it have not run and are not counted.
    #[inline(always)]
    fn run_group(
        &mut self,
        group: Group,
        instr: &Instr,
        env: &mut exec::Env,
        events: &mut dyn EventSink,
    ) -> Result<(), TrapAt> {
        let Group { first, end, pc, .. } = group;
        let mut active = group.active;
        let mut fault = None;
        let mut ran_to = end;
        if group.members() > 1 && exec::is_register_only(instr.op) {
            let grouped = exec::step_group(&mut self.waves[first..end], instr, env);
            debug_assert!(grouped, "register-only instructions run as a group");
        } else {
            let stats = &mut *self.stats;
            for member in first..end {
                let wave = &mut self.waves[member];
                // SAFETY: `instr` is one of the machine's validated instructions and `wave` one of
                // its workgroup's waves (the invariant of `Pass`).
                let result = unsafe { exec::step(wave, instr, env, events) };
                if matches!(instr.op, Op::If | Op::Loop) {
                    stats.record_frame_push(wave, instr.op, pc);
                }
                if let Err(error) = result {
                    // The members after this one did not run: their lanes are unchanged.
                    let later = &self.waves[member + 1..end];
                    active -= later.iter().map(active_lanes).sum::<u64>();
                    ran_to = member + 1;
                    fault = Some((member, error));
                    break;
                }
                if wave.status != WaveStatus::Ready
                    && SpecRules::release_barrier(self.waves, events)
                {
                    stats.barriers += 1;
                }
            }
        }
        let count = (ran_to - first) as u64;
        let slots = self.slots.of_waves(count, ran_to);
        self.account(pc, count, active, slots);
        match fault {
            None => Ok(()),
            Some((member, error)) => Err(TrapAt {
                wave: member,
                kind: error.kind,
                lane: error.lane,
                pc,
            }),
        }
    }

    /// Records `count` executions of the instruction at `pc` (a group's, or the part of a
    /// stretch's last round that ran before a fault) in the per-pc statistics and the totals.
    #[inline(always)]
    pub(super) fn account(&mut self, pc: u32, count: u64, active: u64, slots: u64) {
        if let Some(record) = self.stats.per_pc.get_mut(pc as usize) {
            record.count += count;
            record.active_lanes += active;
            record.lane_slots += slots;
        }
        self.active_sum += active;
        self.slots_sum += slots;
        self.ran += count;
        *self.executed += count;
    }

    /// Writes the totals into the machine's statistics; returns how many instructions ran.
    #[inline(always)]
    fn finish(self) -> u64 {
        self.stats.wave_instructions += self.ran;
        self.stats.active_lane_instructions += self.active_sum;
        self.stats.lane_slots += self.slots_sum;
        self.ran
    }
}
