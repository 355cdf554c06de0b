//! The SIMT machine: runs one kernel over a grid of workgroups, one scheduled wave-instruction at
//! a time, and exposes everything a debugger view needs.

pub mod config;
mod control;
pub mod event;
mod exec;
pub mod frame;
mod lanes;
pub mod memory;
mod memory_ops;
mod mma;
pub mod stats;
pub mod trap;
pub mod wave;
mod wave_ops;
pub mod workgroup;

use crate::instr::Instr;
use crate::program::Kernel;
pub use config::{ConfigError, LaunchConfig, ResolvedLaunch};
pub use event::{Event, EventKind, EventSink, NoEvents};
pub use frame::{Frame, FrameKind};
pub use memory::Memory;
pub use stats::Stats;
pub use trap::{MemorySpace, Trap, TrapKind};
pub use wave::{LaneState, Wave, WaveStatus};
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

pub struct Machine {
    code: Vec<Instr>,
    register_file_size: u32,
    launch: ResolvedLaunch,
    device: Memory,
    workgroup: Workgroup,
    stats: Stats,
    state: State,
}

impl Machine {
    /// A machine at the start of `kernel`, with zeroed device memory of the configured size.
    pub fn new(kernel: &Kernel, config: &LaunchConfig) -> Result<Self, ConfigError> {
        let launch = config.resolve(kernel)?;
        let register_file_size = kernel.register_file_size.clamp(1, 256);
        let workgroup = Workgroup::new(0, &launch, register_file_size);
        let state = if launch.workgroup_count() == 0 {
            State::Finished
        } else {
            State::Running
        };
        Ok(Machine {
            code: kernel.code.clone(),
            register_file_size,
            device: Memory::zeroed(launch.device_memory),
            workgroup,
            stats: Stats::for_code_len(kernel.code.len()),
            launch,
            state,
        })
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
    /// trap happens, or (except for the very first instruction, so that a run can leave a
    /// breakpoint it stopped at) a wave is about to execute an instruction whose index is set in
    /// `breakpoints`.
    pub fn run<S: EventSink>(
        &mut self,
        max_steps: u64,
        breakpoints: &[bool],
        events: &mut S,
    ) -> Stop {
        for executed in 0..max_steps {
            let wave = match self.next_wave(events) {
                Ok(wave) => wave,
                Err(stop) => return stop,
            };
            let pc = self.workgroup.waves[wave].pc;
            if executed > 0 && breakpoints.get(pc as usize).copied().unwrap_or(false) {
                return Stop::Breakpoint {
                    wave: wave as u32,
                    pc,
                };
            }
            if let Err(stop) = self.execute(wave, events) {
                return stop;
            }
        }
        match self.state {
            State::Finished => Stop::Finished,
            State::Trapped(trap) => Stop::Trap(trap),
            State::Running => Stop::SliceUsed,
        }
    }

    /// Runs the whole grid without events or breakpoints.
    pub fn run_to_end(&mut self) -> Stop {
        loop {
            match self.run(u64::MAX, &[], &mut NoEvents) {
                Stop::SliceUsed => continue,
                stop => return stop,
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
            let picked = match self.next_wave(events) {
                Ok(picked) => picked,
                Err(stop) => return stop,
            };
            if let Err(stop) = self.execute(picked, events) {
                return stop;
            }
            if picked == wave {
                return Stop::Stepped;
            }
        }
        Stop::SliceUsed
    }

    /// The wave that runs next: moves on to the next workgroup when this one is done and releases
    /// barriers; `Err` when nothing can run.
    fn next_wave<S: EventSink>(&mut self, events: &mut S) -> Result<usize, Stop> {
        loop {
            match self.state {
                State::Running => {}
                State::Finished => return Err(Stop::Finished),
                State::Trapped(trap) => return Err(Stop::Trap(trap)),
            }
            if let Some(wave) = self.workgroup.pick() {
                return Ok(wave);
            }
            if self.workgroup.is_done() {
                self.finish_workgroup();
                continue;
            }
            // Every live wave waits at a barrier; release them. (Cannot fail to release: finished
            // waves never block, so some wave is ready afterwards.)
            if self.workgroup.release_barrier_if_complete(events) {
                self.stats.barriers += 1;
            } else {
                return Err(Stop::Finished);
            }
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
        let next = self.workgroup.index as u64 + 1;
        if next >= self.launch.workgroup_count() {
            self.state = State::Finished;
        } else {
            self.workgroup = Workgroup::new(next as u32, &self.launch, self.register_file_size);
        }
    }

    fn trap_at(&mut self, wave: usize, kind: TrapKind, lane: Option<u32>, pc: u32) -> Stop {
        let trap = Trap {
            kind,
            workgroup: self.workgroup.index,
            wave: wave as u32,
            lane,
            pc,
        };
        self.state = State::Trapped(trap);
        Stop::Trap(trap)
    }

    /// Executes one instruction of `wave` in the current workgroup.
    #[inline]
    fn execute<S: EventSink>(&mut self, wave_index: usize, events: &mut S) -> Result<(), Stop> {
        let limit = self.launch.max_instructions;
        let pc = self.workgroup.waves[wave_index].pc;
        if limit != 0 && self.workgroup.executed >= limit {
            return Err(self.trap_at(wave_index, TrapKind::BudgetExceeded { limit }, None, pc));
        }
        let Some(instr) = self.code.get(pc as usize).copied() else {
            return Err(self.trap_at(wave_index, TrapKind::RanOffEnd, None, pc));
        };
        let launch = &self.launch;
        let workgroup = &mut self.workgroup;
        let num_waves = workgroup.waves.len() as u32;
        let wave = &mut workgroup.waves[wave_index];
        let stats = &mut self.stats;
        stats.wave_instructions += 1;
        let active = wave.active.count_ones() as u64;
        stats.active_lane_instructions += active;
        let slots = wave.present.count_ones() as u64;
        stats.lane_slots += slots;
        if let Some(lane_slots) = stats.per_pc_lane_slots.get_mut(pc as usize) {
            *lane_slots += slots;
        }
        if let Some(count) = stats.per_pc_count.get_mut(pc as usize) {
            *count += 1;
        }
        if let Some(lanes) = stats.per_pc_active_lanes.get_mut(pc as usize) {
            *lanes += active;
        }
        let mut env = exec::Env {
            device: &mut self.device,
            local: &mut workgroup.local,
            workgroup_id: workgroup.id,
            workgroup_size: launch.workgroup,
            grid_size: launch.grid,
            num_waves,
        };
        let result = exec::step(wave, &instr, &mut env, events);
        if instr.op == crate::instr::Op::If {
            // An `if` whose then and else sides are both non-empty (the frame it just pushed).
            if let Some(frame) = wave.stack.last().filter(|f| f.origin == pc) {
                if frame.then_mask != 0 && frame.else_mask != 0 {
                    stats.divergent_branches += 1;
                }
            }
        }
        let depth = wave.stack.len() as u32;
        let status = wave.status;
        workgroup.executed += 1;
        workgroup.next_pick = if wave_index + 1 == workgroup.waves.len() {
            0
        } else {
            wave_index + 1
        };
        stats.max_stack_depth = stats.max_stack_depth.max(depth);
        if let Err(fault) = result {
            return Err(self.trap_at(wave_index, fault.kind, fault.lane, pc));
        }
        if status != WaveStatus::Ready && self.workgroup.release_barrier_if_complete(events) {
            self.stats.barriers += 1;
        }
        Ok(())
    }
}
