//! The SIMT machine: runs one kernel over a grid of workgroups, one scheduled wave-instruction at
//! a time, and exposes everything a debugger view needs.

mod behaviour;
mod code;
mod config;
mod control;
mod cpu;
mod event;
mod exec;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod fma_simd128;
mod frame;
mod full_rows;
mod full_wave_load;
mod fused_fma;
mod history;
mod lane_bits;
mod lanes;
mod lockstep;
mod memory;
mod memory_ops;
mod mma;
mod reference;
mod reference_stats;
mod rules;
mod run_loop;
mod stats;
mod trap;
mod wave;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod wave_op_flow_tests;
mod wave_ops;
mod workgroup;

use std::fmt;

use crate::program::Kernel;
use crate::validate::KernelError;
pub use behaviour::Behaviour;
use code::Code;
pub use config::{
    ConfigError, LaunchConfig, ResolvedLaunch, DEFAULT_DEVICE_MEMORY, DEFAULT_LOCAL_MEMORY,
    DEFAULT_MAX_INSTRUCTIONS, DEFAULT_WAVE_WIDTH, MAX_MEMORY_BYTES, MAX_WORKGROUP_THREADS,
};
use cpu::Avx2Fma;
pub use event::{Event, EventKind, EventSink, NoEvents, Recorded};
pub use frame::{Frame, FrameKind};
pub use fused_fma::{fused_fma_row, offer_fused_run, FusedRun};
pub use history::{
    windows_back, Arrival, Checkpoint, ForeignCheckpoint, History, Replayed, Sample, WaveSteps,
    DEFAULT_BUDGET, PAGE_BYTES,
};
pub use memory::Memory;
use reference::WaveEmuRules;
pub use reference::{wave_emu_error, wave_emu_out_of_bounds, Departure, DepartureEvent};
pub use reference_stats::ReferenceStats;
use rules::ControlRules;
use run_loop::{Outcome, SpecRules};
pub use stats::{PcStats, ReferenceCounts, Stats};
pub use trap::{MemorySpace, Trap, TrapKind};
pub use wave::{lanes_mask, Fragment, FragmentStore, LaneState, Wave, WaveStatus, MAX_LANES};
pub use wave_ops::{flow as wave_op_flow, is_wave_op, LaneSource, WaveOpFlow};
pub use workgroup::Workgroup;

/// Why a run or step came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every workgroup of the grid finished.
    Finished,
    /// The step allowance of this call is used up; call again to go on.
    SliceUsed,
    /// The next instruction of `wave` is at a breakpoint (it has not run yet).
    Breakpoint {
        wave: u32,
        pc: u32,
    },
    /// The chosen wave executed one instruction (`step_wave`).
    Stepped,
    /// The chosen wave has no more instructions to run (`step_wave`).
    WaveFinished,
    Trap(Trap),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Running,
    Finished,
    Trapped(Trap),
}

/// Why [`Machine::new`] cannot build a machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The kernel breaks a rule the machine relies on (only a kernel built by hand can).
    Kernel(KernelError),
    /// The launch configuration does not fit the kernel.
    Config(ConfigError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Kernel(error) => write!(f, "invalid kernel: {error}"),
            StartError::Config(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for StartError {}

impl From<KernelError> for StartError {
    fn from(error: KernelError) -> Self {
        StartError::Kernel(error)
    }
}

impl From<ConfigError> for StartError {
    fn from(error: ConfigError) -> Self {
        StartError::Config(error)
    }
}

pub struct Machine {
    code: Code,
    launch: ResolvedLaunch,
    device: Memory,
    workgroup: Workgroup,
    stats: Stats,
    state: State,
    /// (wave, pc) of the instruction a run may start with even when it is at a breakpoint.
    parked: Option<(usize, u32)>,
    /// Set when the run loop may use its copy compiled for AVX2 and FMA.
    avx2_fma: Option<Avx2Fma>,
    /// This machine's identity: only its own checkpoints can be restored into it.
    origin: u64,
    /// Whose rules the machine runs by; chosen before it runs.
    behaviour: Behaviour,
}

impl Machine {
    /// A machine at the start of `kernel`, with zeroed device memory of the configured size.
    /// Refuses a kernel that breaks a rule of [`crate::validate`] (every kernel the front end
    /// produces keeps them) and a configuration that does not fit the kernel.
    pub fn new(kernel: &Kernel, config: &LaunchConfig) -> Result<Self, StartError> {
        let code = Code::new(kernel)?;
        let launch = config.resolve(kernel)?;
        let workgroup = Workgroup::new(0, &launch, code.register_file_size());
        let state = if launch.workgroup_count() == 0 {
            State::Finished
        } else {
            State::Running
        };
        Ok(Machine {
            stats: Stats::for_code_len(code.instrs().len()),
            code,
            device: Memory::zeroed(launch.device_memory),
            workgroup,
            launch,
            state,
            parked: None,
            avx2_fma: Avx2Fma::detect(),
            origin: history::next_origin(),
            behaviour: Behaviour::Spec,
        })
    }

    /// Makes the machine run by `behaviour`'s rules ([`Behaviour::Spec`] unless this is called).
    /// Call it before the first step: the rules of the two differ in what a wave's frames hold,
    /// so a run is not meant to change behaviour half-way. The machine takes a new identity, so
    /// checkpoints taken before the call cannot be restored into it.
    pub fn set_behaviour(&mut self, behaviour: Behaviour) {
        if behaviour != self.behaviour {
            self.behaviour = behaviour;
            self.origin = history::next_origin();
        }
    }

    pub fn behaviour(&self) -> Behaviour {
        self.behaviour
    }

    /// Makes the machine use its portable run loop even on a CPU for which a faster copy exists
    /// (both must give identical results; the tests compare them).
    pub fn use_portable_loop(&mut self) {
        self.avx2_fma = None;
    }

    pub fn launch(&self) -> &ResolvedLaunch {
        &self.launch
    }

    pub fn device(&self) -> &Memory {
        &self.device
    }

    /// Device memory, to fill before running (kernel arguments, input data).
    pub fn device_mut(&mut self) -> &mut Memory {
        &mut self.device
    }

    /// The workgroup running now (or the last one, once finished).
    pub fn workgroup(&self) -> &Workgroup {
        &self.workgroup
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn is_finished(&self) -> bool {
        self.state == State::Finished
    }

    pub fn trap(&self) -> Option<Trap> {
        match self.state {
            State::Trapped(trap) => Some(trap),
            _ => None,
        }
    }

    /// Runs up to `max_steps` scheduled wave-instructions. Stops early when the grid finishes, a
    /// trap happens, or a wave is about to execute an instruction whose index is set in
    /// `breakpoints` — except the instruction the machine is parked at (the breakpoint it last
    /// stopped at, or the one [`Machine::leave_breakpoint`] chose), so a run can go on from it.
    pub fn run<S: EventSink>(
        &mut self,
        max_steps: u64,
        breakpoints: &[bool],
        events: &mut S,
    ) -> Stop {
        let mut executed = 0;
        loop {
            // Checked before advancing: a step that ends a workgroup leaves it on view until the
            // next call moves on.
            if executed >= max_steps {
                return match self.state {
                    State::Finished => Stop::Finished,
                    State::Trapped(trap) => Stop::Trap(trap),
                    State::Running => Stop::SliceUsed,
                };
            }
            if let Err(stop) = self.advance_to_ready_wave(events) {
                return stop;
            }
            let (ran, outcome) = self.run_workgroup(max_steps - executed, breakpoints, events);
            executed += ran;
            match outcome {
                Outcome::NoWaveReady => {}
                Outcome::StepsUsed => return Stop::SliceUsed,
                Outcome::Stopped(stop) => return stop,
            }
        }
    }

    /// Runs the whole grid without events or breakpoints.
    pub fn run_to_end(&mut self) -> Stop {
        self.run(u64::MAX, &[], &mut NoEvents)
    }

    /// Parks the machine at the instruction that runs next, so the next [`Machine::run`] does not
    /// stop at a breakpoint there (a debugger's "continue" from where the user stands). When the
    /// current workgroup is finished, the user stands at its end, not at the next workgroup's
    /// first instruction: nothing is parked, and a breakpoint there stops the run.
    pub fn leave_breakpoint<S: EventSink>(&mut self, events: &mut S) {
        let workgroup = self.workgroup.index;
        if self.advance_to_ready_wave(events).is_ok() && self.workgroup.index == workgroup {
            if let Some(wave) = self.workgroup.pick() {
                self.parked = Some((wave, self.workgroup.waves[wave].pc));
            }
        }
    }

    /// Runs (without breakpoints, at most `max_steps` instructions) until workgroup `index` is the
    /// current one and none of its instructions has run. `Err(Stop::SliceUsed)` asks to call
    /// again; other errors say why the grid cannot get there. A workgroup already under way (or
    /// an earlier index) counts as reached.
    pub fn run_to_workgroup<S: EventSink>(
        &mut self,
        index: u32,
        max_steps: u64,
        events: &mut S,
    ) -> Result<(), Stop> {
        let mut executed = 0;
        loop {
            // Checked before advancing: a finished workgroup still on view counts as reached.
            if self.workgroup.index >= index {
                return Ok(());
            }
            self.advance_to_ready_wave(events)?;
            if self.workgroup.index >= index {
                return Ok(());
            }
            if executed >= max_steps {
                return Err(Stop::SliceUsed);
            }
            let (ran, outcome) = self.run_workgroup(max_steps - executed, &[], events);
            executed += ran;
            if let Outcome::Stopped(stop) = outcome {
                return Err(stop);
            }
        }
    }

    /// Runs scheduled instructions until wave `wave` of the current workgroup has executed one
    /// (other waves run as the scheduler picks them), or at most `max_steps` instructions.
    pub fn step_wave<S: EventSink>(&mut self, wave: usize, max_steps: u64, events: &mut S) -> Stop {
        let workgroup = self.workgroup.index;
        for _ in 0..max_steps {
            if self.workgroup.index != workgroup
                || self
                    .workgroup
                    .waves
                    .get(wave)
                    .is_none_or(|w| w.status == WaveStatus::Done)
            {
                return Stop::WaveFinished;
            }
            if let Err(stop) = self.advance_to_ready_wave(events) {
                return stop;
            }
            let picked = self.workgroup.pick();
            if let (_, Outcome::Stopped(stop)) = self.run_workgroup(1, &[], events) {
                return stop;
            }
            if picked == Some(wave) {
                return Stop::Stepped;
            }
        }
        Stop::SliceUsed
    }

    /// Makes the transitions that need no instruction until a wave is ready to run: moves on to
    /// the next workgroup when this one is done, and releases a barrier every live wave waits at.
    /// `Err` when nothing can run (the grid finished or trapped).
    pub fn advance_to_ready_wave<S: EventSink + ?Sized>(
        &mut self,
        events: &mut S,
    ) -> Result<(), Stop> {
        match self.behaviour {
            Behaviour::Spec => self.advance::<SpecRules, S>(events),
            Behaviour::WaveEmu => self.advance::<WaveEmuRules, S>(events),
        }
    }

    /// [`Machine::advance_to_ready_wave`] by the barrier rules of `R`.
    fn advance<R: ControlRules, S: EventSink + ?Sized>(
        &mut self,
        events: &mut S,
    ) -> Result<(), Stop> {
        loop {
            match self.state {
                State::Running => {}
                State::Finished => return Err(Stop::Finished),
                State::Trapped(trap) => return Err(Stop::Trap(trap)),
            }
            if self.workgroup.pick().is_some() {
                return Ok(());
            }
            if self.workgroup.is_done() {
                self.finish_workgroup();
                continue;
            }
            // No wave is ready and some wait at a barrier: release them if the rules let them go.
            let waves = &mut self.workgroup.waves;
            if R::release_barrier(waves, events) {
                self.stats.barriers += 1;
                continue;
            }
            let Some(wave) = R::deadlocked_wave(waves) else {
                return Err(Stop::Finished);
            };
            let trap = Trap {
                kind: TrapKind::BarrierDeadlock,
                workgroup: self.workgroup.index,
                wave: wave as u32,
                lane: None,
                // The barrier it waits at (a waiting wave stands after it).
                pc: waves[wave].pc.saturating_sub(1),
            };
            self.state = State::Trapped(trap);
            return Err(Stop::Trap(trap));
        }
    }

    fn finish_workgroup(&mut self) {
        self.stats.workgroups_executed += 1;
        self.stats.waves_executed += self
            .workgroup
            .waves
            .iter()
            .filter(|w| w.present != 0)
            .count() as u64;
        self.parked = None;
        let next = self.workgroup.index as u64 + 1;
        if next >= self.launch.workgroup_count() {
            self.state = State::Finished;
        } else {
            let registers = self.code.register_file_size();
            self.workgroup.restart(next as u32, &self.launch, registers);
        }
    }
}
