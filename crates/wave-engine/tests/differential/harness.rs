//! Runs one program on wave-emu 0.1.2 and on our machine under the same launch, and compares the
//! whole device memory afterwards, and the statistics the reference prints with `--stats`.

use wave_engine::compile;
use wave_engine::machine::{LaunchConfig, Machine, NoEvents, ReferenceStats, Stop};

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
        ReferenceStats {
            instructions: 0,
            integer_ops: 0,
            float_ops: 0,
            memory_ops: 0,
            control_ops: 0,
            wave_ops: 0,
            atomic_ops: 0,
            ..self.stats
        }
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
/// wave-asm 0.1.2).
pub fn run_oracle(source: &str, launch: &Launch) -> Result<Ran, String> {
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
        max_instructions: MAX_INSTRUCTIONS,
        initial_registers: launch.initial_registers.clone(),
    });
    emulator
        .load_binary(&assembled.binary)
        .map_err(|error| format!("wave-emu could not load the binary: {error}"))?;
    emulator
        .load_device_memory(0, &launch.initial_memory)
        .map_err(|error| format!("wave-emu could not load memory: {error}"))?;
    let result = emulator
        .run()
        .map_err(|error| format!("wave-emu failed: {error}"))?;
    let memory = emulator
        .read_device_memory(0, launch.initial_memory.len())
        .map_err(|error| format!("wave-emu could not read memory back: {error}"))?;
    Ok(Ran {
        memory,
        stats: reference_stats(&result.stats),
        skipped: false,
    })
}

/// Device memory and the reference's statistics after our machine ran `source`.
pub fn run_ours(source: &str, launch: &Launch) -> Result<Ran, String> {
    let compiled = compile(source);
    let program = compiled.program.ok_or_else(|| {
        format!(
            "our front end rejected the program:\n{}",
            wave_engine::diagnostic::render(source, &compiled.diagnostics)
        )
    })?;
    let kernel = program
        .kernels
        .first()
        .ok_or_else(|| "the program has no kernel".to_string())?;
    let config = LaunchConfig {
        grid: launch.grid,
        workgroup: launch.workgroup,
        wave_width: launch.wave_width,
        local_memory: launch.local_memory,
        device_memory: launch.initial_memory.len() as u32,
        max_instructions: MAX_INSTRUCTIONS,
        initial_registers: launch.initial_registers.clone(),
    };
    let mut machine =
        Machine::new(kernel, &config).map_err(|error| format!("launch rejected: {error}"))?;
    machine
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&launch.initial_memory);
    let mut portable =
        Machine::new(kernel, &config).map_err(|e| format!("launch rejected: {e}"))?;
    portable.use_portable_loop();
    portable
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&launch.initial_memory);
    let mut sliced = Machine::new(kernel, &config).map_err(|e| format!("launch rejected: {e}"))?;
    sliced
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&launch.initial_memory);
    let stop = machine.run_to_end();
    let portable_stop = portable.run_to_end();
    if portable_stop != stop || portable.device().bytes() != machine.device().bytes() {
        return Err(format!(
            "the portable run loop disagrees with the CPU's fastest one ({portable_stop:?} vs {stop:?})"
        ));
    }
    // In slices whose sizes cut through lockstep stretches and groups at changing places, the
    // machine must end exactly as in one go: same stop, memory and statistics.
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
            "a run in slices of 1..13 instructions ends otherwise than one run ({sliced_stop:?} vs {stop:?}; statistics equal: {})",
            sliced.stats() == machine.stats()
        ));
    }
    match stop {
        Stop::Finished => Ok(Ran {
            memory: machine.device().bytes().to_vec(),
            stats: ReferenceStats::of(machine.stats(), &kernel.code),
            skipped: skipped_a_path(kernel, &config, &launch.initial_memory)?,
        }),
        other => Err(format!("our machine stopped with {other:?}")),
    }
}

/// Whether a run of `kernel` skips a path no lane takes (a `Skip` event).
fn skipped_a_path(
    kernel: &wave_engine::program::Kernel,
    config: &LaunchConfig,
    memory: &[u8],
) -> Result<bool, String> {
    let mut machine = Machine::new(kernel, config).map_err(|e| format!("launch rejected: {e}"))?;
    machine.device_mut().bytes_mut().copy_from_slice(memory);
    let mut events: Vec<wave_engine::machine::Event> = Vec::new();
    machine.run(u64::MAX, &[], &mut events);
    Ok(events
        .iter()
        .any(|e| matches!(e.kind, wave_engine::machine::EventKind::Skip { .. })))
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
