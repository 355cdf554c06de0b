//! The native benchmark driver (see `main.rs`).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use wave_engine::machine::{LaunchConfig, Machine, Stop};

pub(crate) const GEMM_NAIVE: &str = include_str!("../kernels/gemm_naive.wave");
const GEMM_BLOCKED: &str = include_str!("../kernels/gemm_blocked.wave");
const DIVERGENCE: &str = include_str!("../kernels/divergence.wave");

const LOCAL_MEMORY: u32 = 16 * 1024;
/// Threads of the divergence case, and its step cap.
const DIVERGENCE_THREADS: usize = 64 * 1024;
const DIVERGENCE_CAP: u32 = 1000;

/// SplitMix64: small, seeded, deterministic (the wasm runner draws the same values).
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::seed_from_u64(seed))
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A float in [-1, 1) with at most 12 significant bits, so products stay exact-ish and any
    /// reordering would show.
    fn small_f32(&mut self) -> f32 {
        ((self.next_u64() >> 52) as i32 - 2048) as f32 / 2048.0
    }
}

/// What a run checks its output against, besides the other engine.
enum Reference {
    /// C (N x N f32 at `offset`) must be within `tolerance` of this.
    Gemm {
        offset: usize,
        expected: Vec<f32>,
        tolerance: f32,
    },
    /// These bytes at `offset` must match exactly.
    Exact { offset: usize, expected: Vec<u8> },
}

pub(crate) struct Case {
    pub(crate) name: String,
    source: &'static str,
    grid: [u32; 3],
    memory: Vec<u8>,
    registers: Vec<(u8, u32)>,
    reference: Reference,
}

struct Outcome {
    memory: Vec<u8>,
    time: Duration,
    wave_instructions: u64,
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// C = A·B with one fused multiply-add per k, k ascending: the order both kernels use, so the
/// result should match to the bit.
fn reference_gemm(n: usize, a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut c = vec![0f32; n * n];
    for row in 0..n {
        for col in 0..n {
            let mut acc = 0f32;
            for k in 0..n {
                acc = a[row * n + k].mul_add(b[k * n + col], acc);
            }
            c[row * n + col] = acc;
        }
    }
    c
}

pub(crate) struct GemmInputs {
    n: usize,
    /// A, B, then C zeroed: the device memory both engines start from.
    pub(crate) memory: Vec<u8>,
    expected: Vec<f32>,
}

/// `with_reference` false leaves `expected` empty (profiling runs skip the reference).
pub(crate) fn gemm_inputs(n: usize, with_reference: bool) -> GemmInputs {
    let mut rng = Rng::new(0x5EED_0000 + n as u64);
    let a: Vec<f32> = (0..n * n).map(|_| rng.small_f32()).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.small_f32()).collect();
    let expected = if with_reference {
        reference_gemm(n, &a, &b)
    } else {
        Vec::new()
    };
    let mut memory = f32_bytes(&a);
    memory.extend(f32_bytes(&b));
    memory.resize(3 * n * n * 4, 0);
    GemmInputs {
        n,
        memory,
        expected,
    }
}

fn gemm_case(kind: &str, source: &'static str, block: u32, inputs: &GemmInputs) -> Case {
    let n = inputs.n as u32;
    let bytes = n * n * 4;
    Case {
        name: format!("{kind} GEMM N={n}"),
        source,
        grid: [n / block, n / block, 1],
        memory: inputs.memory.clone(),
        registers: vec![(0, n), (1, 0), (2, bytes), (3, 2 * bytes)],
        reference: Reference::Gemm {
            offset: 2 * bytes as usize,
            expected: inputs.expected.clone(),
            tolerance: 1e-4,
        },
    }
}

fn collatz(start: u32, cap: u32) -> [u32; 4] {
    let (mut x, mut steps, mut peak, mut s) = (start, 0u32, 0i32, 0f32);
    while x > 1 && steps < cap {
        if x & 1 == 0 {
            x >>= 1;
            if x > 1000 {
                s = s.mul_add(0.5, 0.5);
            } else {
                s += 1.0;
            }
        } else {
            x = x.wrapping_mul(3).wrapping_add(1);
            if x & 4 != 0 {
                peak = peak.max(x as i32);
            }
        }
        steps += 1;
    }
    [steps, peak as u32, s.to_bits(), x]
}

fn divergence_case() -> Case {
    let mut rng = Rng::new(0xD1_0E26);
    let inputs: Vec<u32> = (0..DIVERGENCE_THREADS)
        .map(|i| match i % 97 {
            0 => 0,
            1 => 1,
            2 => 27,
            _ => (rng.next_u64() >> 44) as u32 | 1 << (i % 19),
        })
        .collect();
    let expected: Vec<u8> = inputs
        .iter()
        .flat_map(|&x| collatz(x, DIVERGENCE_CAP))
        .flat_map(u32::to_le_bytes)
        .collect();
    let out = DIVERGENCE_THREADS * 4;
    let mut memory: Vec<u8> = inputs.iter().flat_map(|v| v.to_le_bytes()).collect();
    memory.resize(out + DIVERGENCE_THREADS * 16, 0);
    Case {
        name: format!("divergence (Collatz, {} threads)", DIVERGENCE_THREADS),
        source: DIVERGENCE,
        grid: [(DIVERGENCE_THREADS / 256) as u32, 1, 1],
        memory,
        registers: vec![(1, 0), (2, out as u32), (3, DIVERGENCE_CAP)],
        reference: Reference::Exact {
            offset: out,
            expected,
        },
    }
}

fn run_emu(case: &Case, wave_width: u32) -> Result<Outcome, String> {
    let binary = wave_asm::assemble(case.source, &case.name)
        .map_err(|e| format!("wave-asm: {e:?}"))?
        .binary;
    let config = wave_emu::EmulatorConfig {
        grid_dim: case.grid,
        workgroup_dim: [1, 1, 1],
        register_count: 32,
        local_memory_size: LOCAL_MEMORY as usize,
        device_memory_size: case.memory.len(),
        wave_width,
        trace_enabled: false,
        f64_enabled: false,
        max_instructions: 0,
        initial_registers: case.registers.clone(),
    };
    let mut emulator = wave_emu::Emulator::new(config);
    emulator
        .load_binary(&binary)
        .map_err(|e| format!("wave-emu load: {e}"))?;
    emulator
        .load_device_memory(0, &case.memory)
        .map_err(|e| format!("wave-emu memory: {e}"))?;
    let start = Instant::now();
    let result = emulator.run().map_err(|e| format!("wave-emu: {e}"))?;
    let time = start.elapsed();
    let memory = emulator
        .read_device_memory(0, case.memory.len())
        .map_err(|e| format!("wave-emu read: {e}"))?;
    Ok(Outcome {
        memory,
        time,
        wave_instructions: result.stats.instructions_executed,
    })
}

/// Our machine for `case`, with its inputs in device memory, ready to run.
pub(crate) fn machine_for(case: &Case, wave_width: u32, portable: bool) -> Result<Machine, String> {
    let compiled = wave_engine::compile(case.source);
    let Some(program) = compiled.program else {
        return Err(wave_engine::diagnostic::render(
            case.source,
            &compiled.diagnostics,
        ));
    };
    let kernel = program
        .kernels
        .first()
        .ok_or_else(|| "no kernel in the source".to_string())?;
    let config = LaunchConfig {
        grid: case.grid,
        workgroup: [1, 1, 1],
        wave_width,
        local_memory: LOCAL_MEMORY,
        device_memory: case.memory.len() as u32,
        max_instructions: 0,
        initial_registers: case.registers.clone(),
    };
    let mut machine = Machine::new(kernel, &config).map_err(|e| e.to_string())?;
    if portable {
        machine.use_portable_loop();
    }
    machine
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&case.memory);
    Ok(machine)
}

fn run_ours(case: &Case, wave_width: u32, portable: bool) -> Result<Outcome, String> {
    let mut machine = machine_for(case, wave_width, portable)?;
    let start = Instant::now();
    let stop = machine.run_to_end();
    let time = start.elapsed();
    if stop != Stop::Finished {
        return Err(format!("our engine stopped with {stop:?}"));
    }
    Ok(Outcome {
        memory: machine.device().bytes().to_vec(),
        time,
        wave_instructions: machine.stats().wave_instructions,
    })
}

/// The fastest of `reps` runs of `ours` and of `emu_reps` runs of `emu`, the two taking turns
/// (ours, wave-emu, ours, ...) so that a slow spell of a shared machine falls on both rather than
/// on whichever engine happened to run then. With `emu_reps` 0, `emu` is never run and comes
/// back as an error saying so.
fn best_of_alternating(
    reps: u32,
    emu_reps: u32,
    mut ours: impl FnMut() -> Result<Outcome, String>,
    mut emu: impl FnMut() -> Result<Outcome, String>,
) -> (Result<Outcome, String>, Result<Outcome, String>) {
    fn keep_best(best: &mut Option<Result<Outcome, String>>, next: Result<Outcome, String>) {
        match (best.as_ref(), &next) {
            (Some(Err(_)), _) => {}
            (Some(Ok(kept)), Ok(run)) if kept.time <= run.time => {}
            _ => *best = Some(next),
        }
    }
    let (mut best_ours, mut best_emu) = (None, None);
    for round in 0..reps.max(emu_reps).max(1) {
        if round < reps.max(1) {
            keep_best(&mut best_ours, ours());
        }
        if round < emu_reps {
            keep_best(&mut best_emu, emu());
        }
    }
    let missing = || Err("not run".to_string());
    (
        best_ours.unwrap_or_else(missing),
        best_emu.unwrap_or_else(missing),
    )
}

/// Checks `memory` against the case's reference; `Err` says what is wrong.
fn check_reference(case: &Case, memory: &[u8]) -> Result<String, String> {
    match &case.reference {
        Reference::Gemm {
            offset,
            expected,
            tolerance,
        } => {
            let mut max_error = 0f32;
            for (i, want) in expected.iter().enumerate() {
                let at = offset + i * 4;
                let got = f32::from_le_bytes([
                    memory[at],
                    memory[at + 1],
                    memory[at + 2],
                    memory[at + 3],
                ]);
                let error = (got - want).abs();
                if error.is_nan() || error > max_error {
                    max_error = if error.is_nan() { f32::INFINITY } else { error };
                }
            }
            let c = &memory[*offset..*offset + expected.len() * 4];
            let checksum = c.iter().fold(0x811C_9DC5u32, |h, &b| {
                (h ^ b as u32).wrapping_mul(0x0100_0193)
            });
            if max_error <= *tolerance {
                Ok(format!(
                    "max abs error vs the Rust reference {max_error:e}; C checksum (FNV-1a) {checksum:#x}"
                ))
            } else {
                Err(format!(
                    "GEMM result is wrong: max abs error {max_error:e} > {tolerance:e}"
                ))
            }
        }
        Reference::Exact { offset, expected } => {
            let got = &memory[*offset..*offset + expected.len()];
            match got.iter().zip(expected).position(|(g, e)| g != e) {
                None => Ok("matches the Rust reference".into()),
                Some(i) => Err(format!(
                    "differs from the Rust reference at byte {}",
                    offset + i
                )),
            }
        }
    }
}

pub(crate) fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else {
        format!("{:.1} ms", s * 1e3)
    }
}

/// Benchmarks our engine against wave-emu 0.1.2 on the same kernels and inputs; prints a Markdown
/// table and exits non-zero when any output differs.
#[derive(clap::Parser)]
#[command(name = "wave-bench")]
struct Options {
    /// GEMM sizes, comma-separated: multiples of 64 up to 2048.
    #[arg(long, value_delimiter = ',', default_values_t = [256, 512], value_parser = gemm_size)]
    sizes: Vec<usize>,
    /// Repetitions of our engine (the best is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    reps: u32,
    /// Repetitions of wave-emu (the best is reported).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    emu_reps: u32,
    /// Run one case only.
    #[arg(long, value_parser = ["naive", "blocked", "divergence"])]
    only: Option<String>,
    /// Skip wave-emu (for profiling our engine alone): nothing is compared with it.
    #[arg(long)]
    ours_only: bool,
    /// Run our engine's portable loop even where the CPU has a faster one (what wasm gets).
    #[arg(long)]
    portable: bool,
    /// Lanes per wave, for both engines.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=64))]
    wave_width: u32,
    /// Skip the time-travel table (recording history, going to a step) for the GEMMs.
    #[arg(long)]
    no_history: bool,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    bench: bool,
}

fn gemm_size(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 && n.is_multiple_of(64) && n <= 2048 => Ok(n),
        _ => Err(format!("bad size {text:?}: a multiple of 64 up to 2048")),
    }
}

pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = <Options as clap::Parser>::parse();
    // The root Cargo.toml builds wave-emu, wave-asm and wave-decode at opt-level 3 like the engine,
    // so the comparison is like for like.
    let mut command = String::from("cargo run --release -p wave-bench");
    if !args.is_empty() {
        command.push_str(" -- ");
        command.push_str(&args.join(" "));
    }
    println!("Command: `{command}`");
    println!(
        "Wave width {}; times are wall-clock time of the run alone (no assembly, \
         no memory setup); ours is the best of {}, wave-emu the best of {}.\n",
        options.wave_width, options.reps, options.emu_reps
    );

    let wanted = |kind: &str| options.only.as_deref().is_none_or(|only| only == kind);
    let mut cases = Vec::new();
    for &n in &options.sizes {
        if !(wanted("naive") || wanted("blocked")) {
            break;
        }
        let inputs = gemm_inputs(n, !options.ours_only);
        if wanted("naive") {
            cases.push(gemm_case("naive", GEMM_NAIVE, 16, &inputs));
        }
        if wanted("blocked") {
            cases.push(gemm_case("blocked 4x4", GEMM_BLOCKED, 64, &inputs));
        }
    }
    if wanted("divergence") {
        cases.push(divergence_case());
    }

    let mut failed = false;
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for case in &cases {
        eprintln!("running {} ...", case.name);
        let emu_reps = if options.ours_only {
            0
        } else {
            options.emu_reps
        };
        let (ours, emu) = best_of_alternating(
            options.reps,
            emu_reps,
            || run_ours(case, options.wave_width, options.portable),
            || run_emu(case, options.wave_width),
        );
        if options.ours_only {
            match ours {
                Ok(ours) => rows.push(format!(
                    "| {} | {} | – | – | {} | – | – |",
                    case.name,
                    ours.wave_instructions,
                    seconds(ours.time)
                )),
                Err(message) => {
                    failed = true;
                    notes.push(format!("{}: {message}", case.name));
                }
            }
            continue;
        }
        let (emu, ours) = match (emu, ours) {
            (Ok(emu), Ok(ours)) => (emu, ours),
            (emu, ours) => {
                for message in [emu.err(), ours.err()].into_iter().flatten() {
                    notes.push(format!("{}: {message}", case.name));
                }
                failed = true;
                continue;
            }
        };
        let identical = emu.memory == ours.memory;
        if !identical {
            failed = true;
            let first = emu
                .memory
                .iter()
                .zip(&ours.memory)
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            notes.push(format!(
                "{}: device memory differs from wave-emu (first differing byte {first:#x})",
                case.name
            ));
        }
        match check_reference(case, &ours.memory) {
            Ok(note) => notes.push(format!("{}: {note}", case.name)),
            Err(message) => {
                failed = true;
                notes.push(format!("{}: {message}", case.name));
            }
        }
        rows.push(format!(
            "| {} | {} | {} | {} | {} | {:.1}× | {} |",
            case.name,
            ours.wave_instructions,
            emu.wave_instructions,
            seconds(emu.time),
            seconds(ours.time),
            emu.time.as_secs_f64() / ours.time.as_secs_f64().max(1e-9),
            if identical { "yes" } else { "**NO**" },
        ));
    }

    println!("| case | wave-instructions (ours) | wave-instructions (wave-emu) | wave-emu time | ours time | speed-up | bit-identical |");
    println!("|---|---:|---:|---:|---:|---:|---|");
    for row in &rows {
        println!("{row}");
    }
    println!();
    for note in &notes {
        println!("- {note}");
    }
    if !options.no_history {
        let gemms: Vec<&Case> = cases.iter().filter(|c| c.name.contains("GEMM")).collect();
        println!(
            "\nTime travel (our engine, {} repetitions taking turns):\n",
            options.reps
        );
        println!("{}", crate::history::HEADER);
        for case in gemms {
            eprintln!("history of {} ...", case.name);
            match crate::history::row(case, options.wave_width, options.portable, options.reps) {
                Ok(row) => println!("{row}"),
                Err(message) => {
                    failed = true;
                    println!("- {}: {message}", case.name);
                }
            }
        }
    }
    if failed {
        println!("\nFAILED: see the notes above.");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    fn outcome(ms: u64) -> Result<Outcome, String> {
        Ok(Outcome {
            memory: Vec::new(),
            time: Duration::from_millis(ms),
            wave_instructions: ms,
        })
    }

    #[test]
    fn the_engines_take_turns_and_the_fastest_run_of_each_counts() {
        let log = RefCell::new(Vec::new());
        let ours_times = [30, 10, 20];
        let emu_times = [500, 400];
        let (mut i, mut j) = (0, 0);
        let (ours, emu) = best_of_alternating(
            3,
            2,
            || {
                log.borrow_mut().push("ours");
                i += 1;
                outcome(ours_times[i - 1])
            },
            || {
                log.borrow_mut().push("emu");
                j += 1;
                outcome(emu_times[j - 1])
            },
        );
        assert_eq!(*log.borrow(), ["ours", "emu", "ours", "emu", "ours"]);
        assert_eq!(ours.map(|o| o.wave_instructions), Ok(10));
        assert_eq!(emu.map(|o| o.wave_instructions), Ok(400));
    }

    #[test]
    fn a_failed_run_is_reported_and_an_engine_never_run_says_so() {
        let mut calls = 0;
        let (ours, emu) = best_of_alternating(
            2,
            0,
            || {
                calls += 1;
                if calls == 2 {
                    Err("trapped".to_string())
                } else {
                    outcome(5)
                }
            },
            || unreachable!("wave-emu is not run with 0 repetitions"),
        );
        assert_eq!(ours.err().as_deref(), Some("trapped"));
        assert_eq!(emu.err().as_deref(), Some("not run"));
    }
}
