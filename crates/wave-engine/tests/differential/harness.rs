//! Runs one program on wave-emu 0.1.2 and on our machine (in either behaviour) under the same
//! launch, and gives what the tests compare: the whole device memory afterwards, how the run ended
//! (a trap of ours named as the reference's error), and the statistics the reference prints with
//! `--stats`.

use wave_engine::compile;
use wave_engine::machine::{
    wave_emu_error, Behaviour, EventKind, LaunchConfig, Machine, NoEvents, Recorded,
    ReferenceStats, Stop, TrapKind,
};
use wave_engine::program::Kernel;

/// Wave-instructions allowed per workgroup in both machines; generated programs use far fewer.
pub const MAX_INSTRUCTIONS: u64 = 2_000_000;

/// A launch, spelled once for both machines.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
    pub wave_width: u32,
    pub local_memory: u32,
    pub initial_memory: Vec<u8>,
    pub initial_registers: Vec<(u8, u32)>,
}

/// Device memory and statistics after a run.
pub struct Ran {
    pub memory: Vec<u8>,
    pub stats: ReferenceStats,
    /// Our machine skipped a path no lane took (the reference runs such paths with an empty
    /// mask and counts their instructions: departure D12), so only the per-lane figures can
    /// agree.
    pub skipped: bool,
}

impl Ran {
    /// The figures that agree whatever was skipped: memory traffic per lane, barriers,
    /// divergent branches, workgroups and waves.
    pub fn lane_figures(&self) -> ReferenceStats {
        lane_figures(&self.stats)
    }
}

/// The figures of `stats` that do not count instructions: memory traffic per lane, barriers,
/// divergent branches, workgroups and waves.
pub fn lane_figures(stats: &ReferenceStats) -> ReferenceStats {
    ReferenceStats {
        instructions: 0,
        integer_ops: 0,
        float_ops: 0,
        memory_ops: 0,
        control_ops: 0,
        wave_ops: 0,
        atomic_ops: 0,
        ..*stats
    }
}

/// Whether the two runs' statistics agree as far as they can (see [`Ran::skipped`]).
pub fn stats_agree(ours: &Ran, oracle: &Ran) -> bool {
    if ours.skipped {
        ours.lane_figures() == oracle.lane_figures()
    } else {
        ours.stats == oracle.stats
    }
}

/// The reference's statistics in our type, field for field.
fn reference_stats(stats: &wave_emu::stats::ExecutionStats) -> ReferenceStats {
    ReferenceStats {
        instructions: stats.instructions_executed,
        integer_ops: stats.integer_ops,
        float_ops: stats.float_ops,
        memory_ops: stats.memory_ops,
        control_ops: stats.control_ops,
        wave_ops: stats.wave_ops,
        atomic_ops: stats.atomic_ops,
        device_loads: stats.device_loads,
        device_load_bytes: stats.device_load_bytes,
        device_stores: stats.device_stores,
        device_store_bytes: stats.device_store_bytes,
        local_loads: stats.local_loads,
        local_load_bytes: stats.local_load_bytes,
        local_stores: stats.local_stores,
        local_store_bytes: stats.local_store_bytes,
        barriers: stats.barriers,
        divergent_branches: stats.divergent_branches,
        workgroups_executed: stats.workgroups_executed,
        waves_executed: stats.waves_executed,
    }
}

/// Device memory and statistics after the reference emulator ran `source` (already spelled for
/// wave-asm 0.1.2); a failed run is an error.
pub fn run_oracle(source: &str, launch: &Launch) -> Result<Ran, String> {
    let ended = oracle_ending(source, launch, MAX_INSTRUCTIONS)?;
    match ended.ending {
        Ending::Finished(stats) => Ok(Ran {
            memory: ended.memory,
            stats,
            skipped: false,
        }),
        Ending::Failed(failure) => Err(format!("wave-emu failed: {failure}")),
    }
}

/// Device memory and the reference's statistics after our machine ran `source` in spec mode
/// (checked against its other run loops by [`ours_ending`]); a trap is an error.
pub fn run_ours(source: &str, launch: &Launch) -> Result<Ran, String> {
    let kernel = compile_kernel(source)?;
    let (ended, recorded) = ours_ending(&kernel, launch, Behaviour::Spec, MAX_INSTRUCTIONS)?;
    match ended.ending {
        Ending::Finished(stats) => Ok(Ran {
            memory: ended.memory,
            stats,
            skipped: recorded
                .events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Skip { .. })),
        }),
        Ending::Failed(failure) => Err(format!("our machine stopped with a trap: {failure}")),
    }
}

/// The first differing 32-bit word (byte offset, ours, oracle) and how many words differ.
pub fn first_difference(ours: &[u8], oracle: &[u8]) -> Option<(u32, u32, u32, usize)> {
    let word = |bytes: &[u8], at: usize| {
        let mut w = [0u8; 4];
        for (i, b) in bytes.get(at..).unwrap_or(&[]).iter().take(4).enumerate() {
            w[i] = *b;
        }
        u32::from_le_bytes(w)
    };
    let mut first = None;
    let mut count = 0;
    for at in (0..ours.len().max(oracle.len())).step_by(4) {
        let (a, b) = (word(ours, at), word(oracle, at));
        if a != b || ours.len() != oracle.len() {
            count += 1;
            first.get_or_insert((at as u32, a, b));
        }
    }
    first.map(|(at, a, b)| (at, a, b, count))
}

/// How a run ended, in terms both machines share: finished with the reference's statistics, or
/// failed in one of the ways [`failure_name`] names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Finished(ReferenceStats),
    Failed(&'static str),
}

/// Device memory after a run that may have failed (the reference keeps what was written before
/// its error), and how the run ended.
#[derive(Clone, Debug)]
pub struct Ended {
    pub memory: Vec<u8>,
    pub ending: Ending,
    /// A failed run's error in `wave-emu`'s words: the reference's own, or ours from
    /// `wave_emu_error` in `Behaviour::WaveEmu`.
    pub error_text: Option<String>,
}

/// The name of a failure, for our traps and the reference's errors alike.
pub fn failure_name(kind: TrapKind) -> &'static str {
    match kind {
        TrapKind::MemoryOutOfBounds { .. } => "memory out of bounds",
        TrapKind::StackOverflow => "control stack overflow",
        TrapKind::CallStackOverflow => "call stack overflow",
        TrapKind::ReturnInsideConstruct => "return inside construct",
        TrapKind::RanOffEnd => "ran off the end",
        TrapKind::BudgetExceeded { .. } => "instruction limit",
        TrapKind::ElseWithoutIf => "else without if",
        TrapKind::EndIfWithoutIf => "endif without if",
        TrapKind::EndLoopWithoutLoop => "endloop without loop",
        TrapKind::BreakOutsideLoop => "break outside loop",
        TrapKind::ContinueOutsideLoop => "continue outside loop",
        TrapKind::BarrierDeadlock => "barrier deadlock",
    }
}

/// The reference's error, named as [`failure_name`] names ours; `None` for an error no trap of
/// ours stands for.
fn reference_failure_name(error: &wave_emu::EmulatorError) -> Option<&'static str> {
    use wave_emu::EmulatorError as E;
    Some(match error {
        E::MemoryOutOfBounds { .. } => "memory out of bounds",
        E::InvalidInstruction { .. } => "ran off the end",
        E::InstructionLimitExceeded { .. } => "instruction limit",
        E::Deadlock { .. } => "barrier deadlock",
        E::StackOverflow { kind } if kind == "control flow" => "control stack overflow",
        E::StackOverflow { kind } if kind == "call" => "call stack overflow",
        E::ControlFlowError { message } => match message.as_str() {
            "else without matching if" => "else without if",
            "endif without matching if" => "endif without if",
            "endloop without matching loop" => "endloop without loop",
            "break outside of loop" => "break outside loop",
            "continue outside of loop" => "continue outside loop",
            _ => return None,
        },
        _ => return None,
    })
}

/// Runs `source` (spelled for wave-asm 0.1.2) on the reference emulator with an instruction
/// limit of `max_instructions` per workgroup; a failed run is an [`Ending::Failed`], with the
/// memory as the reference left it. `Err` when the program cannot be assembled or loaded, or
/// fails in a way we have no trap for.
pub fn oracle_ending(
    source: &str,
    launch: &Launch,
    max_instructions: u64,
) -> Result<Ended, String> {
    let assembled = wave_asm::assemble(source, "case.wave")
        .map_err(|error| format!("wave-asm rejected the program: {error:?}"))?;
    let mut emulator = wave_emu::Emulator::new(wave_emu::EmulatorConfig {
        grid_dim: launch.grid,
        workgroup_dim: launch.workgroup,
        register_count: 32,
        local_memory_size: launch.local_memory as usize,
        device_memory_size: launch.initial_memory.len(),
        wave_width: launch.wave_width,
        trace_enabled: false,
        f64_enabled: true,
        max_instructions,
        initial_registers: launch.initial_registers.clone(),
    });
    emulator
        .load_binary(&assembled.binary)
        .map_err(|error| format!("wave-emu could not load the binary: {error}"))?;
    emulator
        .load_device_memory(0, &launch.initial_memory)
        .map_err(|error| format!("wave-emu could not load memory: {error}"))?;
    let mut error_text = None;
    let ending =
        match emulator.run() {
            Ok(result) => Ending::Finished(reference_stats(&result.stats)),
            Err(error) => {
                error_text = Some(error.to_string());
                Ending::Failed(reference_failure_name(&error).ok_or_else(|| {
                    format!("wave-emu failed in a way we have no trap for: {error}")
                })?)
            }
        };
    let memory = emulator
        .read_device_memory(0, launch.initial_memory.len())
        .map_err(|error| format!("wave-emu could not read memory back: {error}"))?;
    Ok(Ended {
        memory,
        ending,
        error_text,
    })
}

/// The first kernel of `source`, or our front end's diagnostics.
pub fn compile_kernel(source: &str) -> Result<Kernel, String> {
    let compiled = compile(source);
    let program = compiled.program.ok_or_else(|| {
        format!(
            "our front end rejected the program:\n{}",
            wave_engine::diagnostic::render(source, &compiled.diagnostics)
        )
    })?;
    program
        .kernels
        .into_iter()
        .next()
        .ok_or_else(|| "the program has no kernel".to_string())
}

/// A machine for `kernel` under `launch`, running by `behaviour`, memory loaded.
fn machine_for(
    kernel: &Kernel,
    launch: &Launch,
    behaviour: Behaviour,
    max_instructions: u64,
) -> Result<Machine, String> {
    let config = LaunchConfig {
        grid: launch.grid,
        workgroup: launch.workgroup,
        wave_width: launch.wave_width,
        local_memory: launch.local_memory,
        device_memory: launch.initial_memory.len() as u32,
        max_instructions,
        initial_registers: launch.initial_registers.clone(),
    };
    let mut machine =
        Machine::new(kernel, &config).map_err(|error| format!("launch rejected: {error}"))?;
    machine.set_behaviour(behaviour);
    machine
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&launch.initial_memory);
    Ok(machine)
}

/// Our run of `kernel` by `behaviour`, with its events and departures, checked against itself
/// first: the portable run loop and a run in slices of 1..13 steps must end exactly as one run
/// on the CPU's fastest loop (same stop, memory and statistics).
pub fn ours_ending(
    kernel: &Kernel,
    launch: &Launch,
    behaviour: Behaviour,
    max_instructions: u64,
) -> Result<(Ended, Recorded), String> {
    let mut machine = machine_for(kernel, launch, behaviour, max_instructions)?;
    let mut recorded = Recorded::default();
    let stop = machine.run(u64::MAX, &[], &mut recorded);
    let mut portable = machine_for(kernel, launch, behaviour, max_instructions)?;
    portable.use_portable_loop();
    let portable_stop = portable.run_to_end();
    if portable_stop != stop
        || portable.device().bytes() != machine.device().bytes()
        || portable.stats() != machine.stats()
    {
        return Err(format!(
            "{behaviour:?}: the portable run loop disagrees with the CPU's fastest one ({portable_stop:?} vs {stop:?})"
        ));
    }
    let mut sliced = machine_for(kernel, launch, behaviour, max_instructions)?;
    let mut slice = 0u64;
    let sliced_stop = loop {
        slice = slice % 13 + 1;
        match sliced.run(slice, &[], &mut NoEvents) {
            Stop::SliceUsed => continue,
            other => break other,
        }
    };
    if sliced_stop != stop
        || sliced.device().bytes() != machine.device().bytes()
        || sliced.stats() != machine.stats()
    {
        return Err(format!(
            "{behaviour:?}: a run in slices of 1..13 steps ends otherwise than one run ({sliced_stop:?} vs {stop:?}; statistics equal: {})",
            sliced.stats() == machine.stats()
        ));
    }
    let mut error_text = None;
    let ending = match stop {
        Stop::Finished => Ending::Finished(ReferenceStats::of(machine.stats(), &kernel.code)),
        Stop::Trap(trap) => {
            if behaviour == Behaviour::WaveEmu {
                error_text = Some(wave_emu_error(
                    &trap,
                    &kernel.code,
                    machine.workgroup().id(),
                ));
            }
            Ending::Failed(failure_name(trap.kind))
        }
        other => return Err(format!("{behaviour:?}: our machine stopped with {other:?}")),
    };
    let memory = machine.device().bytes().to_vec();
    Ok((
        Ended {
            memory,
            ending,
            error_text,
        },
        recorded,
    ))
}
