//! Exact history: the machine's state at chosen steps, kept under a memory budget, from which any
//! earlier step is reached by restoring the nearest checkpoint and replaying (the scheduler is
//! deterministic, so a replay does what the run did).
//!
//! A step count is the number of wave-instructions executed since the start
//! ([`Machine::step_count`]); it names one state of the whole machine.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::wave::Wave;
use super::workgroup::Workgroup;
use super::{Event, Machine, NoEvents, State, Stats, Stop};

pub use super::memory::PAGE_BYTES;

/// The default budget of a history: 64 MiB.
pub const DEFAULT_BUDGET: usize = 64 << 20;

/// Fewest steps between two checkpoints.
const MIN_SPACING: u64 = 256;

/// How much further apart checkpoints are natively than in wasm, where a step is slower against
/// copying memory (a run in the page and `wave-bench` both pay a few percent for recording).
const NATIVE_SPACING_FACTOR: usize = if cfg!(target_arch = "wasm32") { 1 } else { 8 };

/// Gives every machine an identity, so a checkpoint is only ever restored into the machine it
/// was taken from (the run loop's `unsafe` code relies on the waves having the register file of
/// the machine's validated code).
pub(super) fn next_origin() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Everything a run changes, at one step: the workgroup on view (waves, local memory, scheduler
/// position), device memory, statistics, whether the grid finished or trapped, and the
/// breakpoint the machine is parked at.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    origin: u64,
    step: u64,
    workgroup: Workgroup,
    stats: Stats,
    state: State,
    parked: Option<(usize, u32)>,
    device: Vec<Arc<[u8]>>,
}

impl Checkpoint {
    /// The step count it was taken at.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// Bytes this checkpoint holds besides device memory.
    fn fixed_bytes(&self) -> usize {
        let waves: usize = self.workgroup.waves.iter().map(wave_bytes).sum();
        waves
            + self.workgroup.local.len()
            + self.stats.per_pc.len() * std::mem::size_of::<super::PcStats>()
            + std::mem::size_of::<Checkpoint>()
    }
}

/// Two checkpoints hold the same state, whichever machines they come from (device pages by
/// content, whether shared or not).
impl PartialEq for Checkpoint {
    fn eq(&self, other: &Self) -> bool {
        self.step == other.step
            && self.stats == other.stats
            && self.state == other.state
            && self.parked == other.parked
            && self.workgroup == other.workgroup
            && self.device.len() == other.device.len()
            && self
                .device
                .iter()
                .zip(&other.device)
                .all(|(a, b)| a[..] == b[..])
    }
}

fn wave_bytes(wave: &Wave) -> usize {
    std::mem::size_of::<Wave>()
        + std::mem::size_of_val(&wave.registers[..])
        + std::mem::size_of_val(&wave.stack[..])
        + std::mem::size_of_val(&wave.calls[..])
        + std::mem::size_of_val(&wave.fragments[..])
}

/// A restore that cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForeignCheckpoint;

impl std::fmt::Display for ForeignCheckpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the checkpoint was taken from another machine")
    }
}

impl std::error::Error for ForeignCheckpoint {}

impl Machine {
    /// Wave-instructions executed since the start: the machine's position in time.
    pub fn step_count(&self) -> u64 {
        self.stats.wave_instructions
    }

    /// The machine's whole state now, with its own copy of device memory.
    pub fn checkpoint(&self) -> Checkpoint {
        self.checkpoint_sharing(None)
    }

    /// The machine's state now; device pages equal to `previous`'s are shared with it. Pages
    /// not written since the written-page bits were cleared are shared without comparing, so
    /// `previous` must be the state at that moment.
    fn checkpoint_sharing(&self, previous: Option<&Checkpoint>) -> Checkpoint {
        let device = self
            .device
            .bytes()
            .chunks(PAGE_BYTES)
            .enumerate()
            .map(
                |(index, page)| match previous.and_then(|p| p.device.get(index)) {
                    Some(kept) if !self.device.page_written(index) || kept[..] == *page => {
                        Arc::clone(kept)
                    }
                    _ => Arc::from(page),
                },
            )
            .collect();
        Checkpoint {
            origin: self.origin,
            step: self.step_count(),
            workgroup: self.workgroup.clone(),
            stats: self.stats.clone(),
            state: self.state,
            parked: self.parked,
            device,
        }
    }

    /// Marks the grid finished when its last workgroup has just finished (a run that used its
    /// allowance on the last instruction leaves that for the next call to see). Executes
    /// nothing; the finished state is the one a step count names at the end of a run.
    pub fn finish_if_done(&mut self) {
        let last = self.workgroup.index as u64 + 1 >= self.launch.workgroup_count();
        if self.state == State::Running && last && self.workgroup.is_done() {
            let _ = self.advance_to_ready_wave(&mut NoEvents);
        }
    }

    /// Puts the machine back in the state of `checkpoint`, which must have been taken from this
    /// machine.
    pub fn restore(&mut self, checkpoint: &Checkpoint) -> Result<(), ForeignCheckpoint> {
        if checkpoint.origin != self.origin {
            return Err(ForeignCheckpoint);
        }
        self.workgroup.clone_from(&checkpoint.workgroup);
        self.stats.clone_from(&checkpoint.stats);
        self.state = checkpoint.state;
        self.parked = checkpoint.parked;
        // `bytes_mut` marks every page written: the next checkpoint compares them all.
        for (page, kept) in self
            .device
            .bytes_mut()
            .chunks_mut(PAGE_BYTES)
            .zip(&checkpoint.device)
        {
            page.copy_from_slice(kept);
        }
        Ok(())
    }
}

/// Where [`History::go_to`] left the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// At the step asked for.
    Arrived,
    /// The step allowance ran out first; call again to go on.
    OnTheWay,
    /// The run ended (finished or trapped) before that step; the machine is at its end.
    Ended(Stop),
}

/// Where one wave's instructions started (see [`History::wave_steps_before`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WaveSteps {
    /// Ascending steps at which the wave's instructions started: the instruction started at
    /// step `s` leaves the machine at step `s + 1`.
    pub starts: Vec<u64>,
    /// The step at which the wave's workgroup ran its first instruction, when the search went
    /// back that far.
    pub workgroup_start: Option<u64>,
}

/// One instruction of a replay (see [`History::replay_each`]).
pub struct Replayed<'a> {
    /// The step it ran at: it leaves the machine at `step + 1`.
    pub step: u64,
    /// The workgroup on view before it (a finished one stays on view until the next starts).
    pub previous_workgroup: u32,
    /// The workgroup (its index, and its id in the grid), wave and instruction index that ran.
    pub workgroup: u32,
    pub workgroup_id: [u32; 3],
    pub wave: usize,
    pub pc: u32,
    /// What it emitted, with a barrier release just before it.
    pub events: &'a [Event],
}

/// Where a backward search's windows before step `before` begin: 256 steps back, then four times
/// as far each time, down to step 0.
pub fn windows_back(before: u64) -> impl Iterator<Item = u64> {
    std::iter::successors(Some(MIN_SPACING), |window| Some(window.saturating_mul(4)))
        .map(move |window| before.saturating_sub(window))
        .scan(false, |reached_start, from| {
            (!*reached_start).then(|| {
                *reached_start = from == 0;
                from
            })
        })
}

/// The run's lane totals at one step: between two samples, the SIMD efficiency of that stretch
/// (what a zoomed-out timeline draws).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub step: u64,
    /// [`Stats::active_lane_instructions`] at that step.
    pub active_lane_instructions: u64,
    /// [`Stats::lane_slots`] at that step.
    pub lane_slots: u64,
}

/// Samples between two checkpoints.
const SAMPLES_PER_SPACING: u64 = 16;

/// Checkpoints of one machine, oldest first, under a memory budget.
///
/// Recording takes a checkpoint whenever the machine has gone `spacing` steps past the last one.
/// The spacing starts where taking a checkpoint (copying the workgroup, and the device pages
/// written since the last one) costs about as much as running a few percent of its steps, and
/// doubles, dropping every other checkpoint, whenever the budget would be passed: a long run is
/// kept whole, more coarsely, instead of failing.
pub struct History {
    origin: u64,
    checkpoints: Vec<Checkpoint>,
    spacing: u64,
    budget: usize,
    /// Bytes held by the checkpoints, device pages shared between them counted once.
    bytes: usize,
    /// Lane totals every `spacing / SAMPLES_PER_SPACING` steps, ascending.
    samples: Vec<Sample>,
}

impl History {
    /// A history of `machine` from where it stands now (normally its start), holding at most
    /// about `budget` bytes.
    pub fn new(machine: &mut Machine, budget: usize) -> History {
        let first = machine.checkpoint();
        machine.device.clear_written();
        // A checkpoint copies the workgroup and looks at every device page's written bit (the
        // pages written are copied too, but a run writes those in its steps anyway); natively a
        // step costs several times less against a copy than in wasm, so checkpoints are further
        // apart there.
        let pages = machine.device.len().div_ceil(PAGE_BYTES);
        let cost = (first.fixed_bytes() / 8 + pages * 8) * NATIVE_SPACING_FACTOR;
        let spacing = (cost as u64).max(MIN_SPACING).next_power_of_two();
        let mut history = History {
            origin: machine.origin,
            checkpoints: Vec::new(),
            spacing,
            budget,
            bytes: 0,
            samples: Vec::new(),
        };
        history.sample(machine);
        history.push(first);
        history
    }

    /// Lane totals at steps about `spacing / 16` apart, ascending, from the first checkpoint to
    /// the last step recorded.
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    fn sample_spacing(&self) -> u64 {
        (self.spacing / SAMPLES_PER_SPACING).max(1)
    }

    fn next_sample_due(&self) -> u64 {
        self.samples.last().map_or(0, |s| s.step) + self.sample_spacing()
    }

    fn sample(&mut self, machine: &Machine) {
        let step = machine.step_count();
        if self.samples.last().is_some_and(|s| s.step >= step) {
            return;
        }
        self.samples.push(Sample {
            step,
            active_lane_instructions: machine.stats.active_lane_instructions,
            lane_slots: machine.stats.lane_slots,
        });
    }

    /// Bytes held now (what the budget limits).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Steps between two checkpoints now.
    pub fn spacing(&self) -> u64 {
        self.spacing
    }

    /// Number of checkpoints held.
    pub fn len(&self) -> usize {
        self.checkpoints.len()
    }

    /// Never true: the first checkpoint is always kept.
    pub fn is_empty(&self) -> bool {
        self.checkpoints.is_empty()
    }

    /// The latest step recorded: every step up to it can be reached by a short replay.
    pub fn last_step(&self) -> u64 {
        self.checkpoints.last().map_or(0, |c| c.step)
    }

    /// The step at which [`History::record`] takes its next checkpoint; a run that records
    /// stops there (see [`History::run`]).
    pub fn next_due(&self) -> u64 {
        self.last_step() + self.spacing
    }

    /// Takes a checkpoint of `machine` if it has gone past the last one by the spacing or more.
    pub fn record(&mut self, machine: &mut Machine) {
        if machine.origin != self.origin {
            return;
        }
        if machine.step_count() >= self.next_sample_due() {
            self.sample(machine);
        }
        if machine.step_count() < self.next_due() {
            return;
        }
        let checkpoint = machine.checkpoint_sharing(self.checkpoints.last());
        machine.device.clear_written();
        self.push(checkpoint);
        while self.bytes > self.budget && self.checkpoints.len() > 2 {
            self.thin();
        }
    }

    /// Runs `machine` like [`Machine::run`] without events, for at most `max_steps` steps,
    /// stopping before an instruction whose `breakpoints` entry is set, and taking checkpoints on
    /// the way.
    pub fn run(&mut self, machine: &mut Machine, max_steps: u64, breakpoints: &[bool]) -> Stop {
        self.run_to(
            machine,
            machine.step_count().saturating_add(max_steps),
            breakpoints,
        )
    }

    /// Runs `machine` without events up to step `target`, taking checkpoints on the way.
    /// `Stop::SliceUsed` when it got there.
    fn run_to(&mut self, machine: &mut Machine, target: u64, breakpoints: &[bool]) -> Stop {
        loop {
            let now = machine.step_count();
            if now >= target {
                return Stop::SliceUsed;
            }
            let due = self.next_due().min(self.next_sample_due());
            let leg = target.min(due.max(now + 1)) - now;
            let stop = machine.run(leg, breakpoints, &mut NoEvents);
            self.record(machine);
            if stop != Stop::SliceUsed {
                return stop;
            }
        }
    }

    /// Takes `machine` to step `target`: restores the nearest checkpoint at or before it and
    /// replays, running at most `max_steps` steps in this call (a step past the recorded ones
    /// is reached by running, which records as it goes).
    pub fn go_to(&mut self, machine: &mut Machine, target: u64, max_steps: u64) -> Arrival {
        if machine.origin != self.origin {
            return Arrival::Ended(Stop::Finished);
        }
        let now = machine.step_count();
        let nearest = self.nearest(target);
        // Going on from where the machine stands is a shorter replay when it is between the
        // nearest checkpoint and the target (it is the state a replay would pass through).
        if !(nearest.step <= now && now <= target) {
            let _ = machine.restore(nearest);
        }
        let limit = target.min(machine.step_count().saturating_add(max_steps));
        let stop = self.run_to(machine, limit, &[]);
        machine.finish_if_done();
        match stop {
            Stop::SliceUsed if machine.step_count() >= target => Arrival::Arrived,
            Stop::SliceUsed => Arrival::OnTheWay,
            Stop::Finished if machine.step_count() >= target => Arrival::Arrived,
            other => Arrival::Ended(other),
        }
    }

    /// The steps at which wave `wave` of workgroup `workgroup` started its last `wanted`
    /// instructions before step `before`, found by replaying ever wider windows before it (see
    /// [`windows_back`]) until one holds them or reaches the workgroup's start. Leaves the
    /// machine at step `before`.
    pub fn wave_steps_before(
        &mut self,
        machine: &mut Machine,
        workgroup: u32,
        wave: usize,
        before: u64,
        wanted: usize,
    ) -> WaveSteps {
        for from in windows_back(before) {
            let mut found = WaveSteps::default();
            self.replay_each(machine, from, before, |r| {
                if r.workgroup != workgroup {
                    return;
                }
                if found.workgroup_start.is_none()
                    && (r.step == 0 || r.previous_workgroup < workgroup)
                {
                    found.workgroup_start = Some(r.step);
                }
                if r.wave == wave {
                    found.starts.push(r.step);
                }
            });
            if found.starts.len() >= wanted || found.workgroup_start.is_some() || from == 0 {
                let keep = found.starts.len().saturating_sub(wanted);
                found.starts.drain(..keep);
                return found;
            }
        }
        WaveSteps::default()
    }

    /// Replays steps `from..to` one instruction at a time, showing each to `each` once it ran.
    /// Leaves the machine at step `to` (or at the run's end, if that comes first).
    pub fn replay_each(
        &mut self,
        machine: &mut Machine,
        from: u64,
        to: u64,
        mut each: impl FnMut(&Replayed<'_>),
    ) {
        if self.go_to(machine, from, u64::MAX) != Arrival::Arrived {
            return;
        }
        let mut events = Vec::new();
        while machine.step_count() < to {
            events.clear();
            let previous_workgroup = machine.workgroup.index;
            if machine.advance_to_ready_wave(&mut events).is_err() {
                break;
            }
            let Some(wave) = machine.workgroup.pick() else {
                break;
            };
            let (step, workgroup, workgroup_id) = (
                machine.step_count(),
                machine.workgroup.index,
                machine.workgroup.id,
            );
            let pc = machine.workgroup.waves[wave].pc;
            let stop = machine.run(1, &[], &mut events);
            each(&Replayed {
                step,
                previous_workgroup,
                workgroup,
                workgroup_id,
                wave,
                pc,
                events: &events,
            });
            if stop != Stop::SliceUsed {
                break;
            }
        }
    }

    /// The latest checkpoint at or before `step`.
    fn nearest(&self, step: u64) -> &Checkpoint {
        let after = self.checkpoints.partition_point(|c| c.step <= step);
        &self.checkpoints[after.saturating_sub(1)]
    }

    fn push(&mut self, checkpoint: Checkpoint) {
        let shared = |index: usize, page: &Arc<[u8]>| {
            self.checkpoints
                .last()
                .and_then(|p| p.device.get(index))
                .is_some_and(|kept| Arc::ptr_eq(kept, page))
        };
        let new_pages: usize = checkpoint
            .device
            .iter()
            .enumerate()
            .filter(|(index, page)| !shared(*index, page))
            .map(|(_, page)| page.len())
            .sum();
        self.bytes += checkpoint.fixed_bytes() + new_pages;
        self.checkpoints.push(checkpoint);
    }

    /// Doubles the spacing and drops the checkpoints it no longer needs (never the first, nor
    /// the last: recording goes on from it).
    fn thin(&mut self) {
        self.spacing *= 2;
        let apart = self.sample_spacing();
        let mut kept = 0u64;
        let last = self.samples.last().map(|s| s.step);
        self.samples.retain(|sample| {
            let keep = sample.step == 0 || sample.step >= kept + apart || Some(sample.step) == last;
            if keep {
                kept = sample.step;
            }
            keep
        });
        let mut kept_step = self.checkpoints[0].step;
        let mut index = 1;
        while index < self.checkpoints.len() {
            let step = self.checkpoints[index].step;
            if index != self.checkpoints.len() - 1 && step < kept_step + self.spacing {
                self.remove(index);
            } else {
                kept_step = step;
                index += 1;
            }
        }
    }

    /// Removes checkpoint `index` (not the first), freeing the pages no neighbour shares.
    fn remove(&mut self, index: usize) {
        let removed = self.checkpoints.remove(index);
        let before = &self.checkpoints[index - 1];
        let after = self.checkpoints.get(index);
        let freed: usize = removed
            .device
            .iter()
            .enumerate()
            .filter(|(page_index, page)| {
                let in_before = before
                    .device
                    .get(*page_index)
                    .is_some_and(|p| Arc::ptr_eq(p, page));
                let in_after = after
                    .and_then(|a| a.device.get(*page_index))
                    .is_some_and(|p| Arc::ptr_eq(p, page));
                !in_before && !in_after
            })
            .map(|(_, page)| page.len())
            .sum();
        self.bytes -= removed.fixed_bytes() + freed;
    }
}
