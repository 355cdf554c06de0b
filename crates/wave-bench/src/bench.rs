//! The native benchmark driver (see `main.rs`).

use std::fmt;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use wave_engine::machine::{Machine, Stop};

use crate::cases::{self, Kernel, Launch, DIVERGENCE_CAP, DIVERGENCE_THREADS, WAVE_WIDTH};

/// What a run checks its output (the launch's `output` bytes) against, besides the other engine.
enum Reference {
    /// C (N x N f32) must be within `tolerance` of this.
    Gemm { expected: Vec<f32>, tolerance: f32 },
    /// These bytes must match exactly.
    Exact { expected: Vec<u8> },
}

pub(crate) struct Case {
    pub(crate) launch: Launch,
    reference: Reference,
}

struct Outcome {
    memory: Vec<u8>,
    time: Duration,
    wave_instructions: u64,
}

/// The little-endian f32s of `bytes`.
fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// C = A·B with one fused multiply-add per k, k ascending: the order both kernels use, so the
/// result should match to the bit. A and B are the first two matrices of a GEMM's `memory`.
fn reference_gemm(n: usize, memory: &[u8]) -> Vec<f32> {
    let a = f32s(&memory[..n * n * 4]);
    let b = f32s(&memory[n * n * 4..2 * n * n * 4]);
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

/// The GEMM `kernel` at `n`; `expected` is C as the Rust reference computes it (empty when
/// nothing is to be checked against it).
fn gemm_case(kernel: Kernel, n: usize, expected: &[f32]) -> Result<Case, String> {
    Ok(Case {
        launch: cases::launch(kernel, n)?,
        reference: Reference::Gemm {
            expected: expected.to_vec(),
            tolerance: 1e-4,
        },
    })
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

fn divergence_case(threads: usize) -> Result<Case, String> {
    let launch = cases::launch(Kernel::Divergence, threads)?;
    let expected = launch.memory[..launch.output.start]
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .flat_map(|x| collatz(x, DIVERGENCE_CAP))
        .flat_map(u32::to_le_bytes)
        .collect();
    Ok(Case {
        launch,
        reference: Reference::Exact { expected },
    })
}

fn run_emu(case: &Case, wave_width: u32) -> Result<Outcome, String> {
    let launch = &case.launch;
    let binary = wave_asm::assemble(launch.source, &launch.name)
        .map_err(|e| format!("wave-asm: {e:?}"))?
        .binary;
    let config = wave_emu::EmulatorConfig {
        grid_dim: launch.grid,
        workgroup_dim: [1, 1, 1],
        register_count: 32,
        local_memory_size: cases::LOCAL_MEMORY as usize,
        device_memory_size: launch.memory.len(),
        wave_width,
        trace_enabled: false,
        f64_enabled: false,
        max_instructions: 0,
        initial_registers: launch.registers.clone(),
    };
    let mut emulator = wave_emu::Emulator::new(config);
    emulator
        .load_binary(&binary)
        .map_err(|e| format!("wave-emu load: {e}"))?;
    emulator
        .load_device_memory(0, &launch.memory)
        .map_err(|e| format!("wave-emu memory: {e}"))?;
    let start = Instant::now();
    let result = emulator.run().map_err(|e| format!("wave-emu: {e}"))?;
    let time = start.elapsed();
    let memory = emulator
        .read_device_memory(0, launch.memory.len())
        .map_err(|e| format!("wave-emu read: {e}"))?;
    Ok(Outcome {
        memory,
        time,
        wave_instructions: result.stats.instructions_executed,
    })
}

/// Our machine for `case`, with its inputs in device memory, ready to run.
pub(crate) fn machine_for(case: &Case, wave_width: u32, portable: bool) -> Result<Machine, String> {
    let mut machine = cases::machine(&case.launch, wave_width)?;
    if portable {
        machine.use_portable_loop();
    }
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
    let output = &memory[case.launch.output.clone()];
    match &case.reference {
        Reference::Gemm {
            expected,
            tolerance,
        } => {
            let mut max_error = 0f32;
            for (got, want) in f32s(output).into_iter().zip(expected) {
                let error = (got - want).abs();
                if error.is_nan() || error > max_error {
                    max_error = if error.is_nan() { f32::INFINITY } else { error };
                }
            }
            let checksum = cases::fnv1a(output);
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
        Reference::Exact { expected } => {
            match output.iter().zip(expected).position(|(g, e)| g != e) {
                None => Ok(format!(
                    "matches the Rust reference; output checksum (FNV-1a) {:#x}",
                    cases::fnv1a(output)
                )),
                Some(i) => Err(format!(
                    "differs from the Rust reference at byte {}",
                    case.launch.output.start + i
                )),
            }
        }
    }
}

/// One line of `wasm-runner/checksums.txt`: what our engine's run of a kernel at a size, wave
/// width 32, comes to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Checksum {
    kernel: Kernel,
    /// N, or the divergence kernel's thread count.
    size: usize,
    wave_instructions: u64,
    /// FNV-1a over the launch's output bytes.
    checksum: u32,
}

impl fmt::Display for Checksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {:#010x}",
            self.kernel.name(),
            self.size,
            self.wave_instructions,
            self.checksum
        )
    }
}

/// Our engine's run of `kernel` at `size`, wave width 32, as a checksum line; `portable` runs the
/// portable loop (the one wasm gets) even where the CPU has a faster one.
pub(crate) fn native_checksum(
    kernel: Kernel,
    size: usize,
    portable: bool,
) -> Result<Checksum, String> {
    let launch = cases::launch(kernel, size)?;
    let mut machine = cases::machine(&launch, WAVE_WIDTH)?;
    if portable {
        machine.use_portable_loop();
    }
    let stop = machine.run_to_end();
    if stop != Stop::Finished {
        return Err(format!("{}: our engine stopped with {stop:?}", launch.name));
    }
    Ok(Checksum {
        kernel,
        size,
        wave_instructions: machine.stats().wave_instructions,
        checksum: cases::fnv1a(&machine.device().bytes()[launch.output.clone()]),
    })
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
    /// Run one case only: naive, blocked or divergence.
    #[arg(long, value_parser = kernel_name)]
    only: Option<Kernel>,
    /// Skip wave-emu (for profiling our engine alone): nothing is compared with it.
    #[arg(long)]
    ours_only: bool,
    /// Run our engine's portable loop even where the CPU has a faster one (what wasm gets).
    #[arg(long)]
    portable: bool,
    /// Threads of the divergence case: a multiple of 256.
    #[arg(long, default_value_t = DIVERGENCE_THREADS, value_parser = divergence_threads)]
    divergence_threads: usize,
    /// Print our engine's wave-instructions and output checksum (FNV-1a) for each case, at wave
    /// width 32, in the format of `wasm-runner/checksums.txt`, instead of benchmarking.
    #[arg(long, conflicts_with = "wave_width")]
    checksums: bool,
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

fn kernel_name(text: &str) -> Result<Kernel, String> {
    Kernel::from_name(text.trim())
        .ok_or_else(|| format!("no case {text:?}: naive, blocked or divergence"))
}

fn divergence_threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(threads) if threads > 0 && cases::launch(Kernel::Divergence, threads).is_ok() => {
            Ok(threads)
        }
        _ => Err(format!(
            "bad thread count {text:?}: a multiple of 256 up to {}",
            1 << 22
        )),
    }
}

/// `--checksums`: one line per selected case, or the first failure.
fn print_checksums(options: &Options) -> ExitCode {
    let wanted = |kernel: Kernel| options.only.is_none_or(|only| only == kernel);
    let mut runs = Vec::new();
    for &n in &options.sizes {
        runs.extend(
            [Kernel::Naive, Kernel::Blocked]
                .into_iter()
                .filter(|&k| wanted(k))
                .map(|k| (k, n)),
        );
    }
    if wanted(Kernel::Divergence) {
        runs.push((Kernel::Divergence, options.divergence_threads));
    }
    println!(
        "# kernel, size (N, or threads), wave-instructions, FNV-1a of the output: our engine at \
         wave width 32{}",
        if options.portable {
            ", portable loop"
        } else {
            ""
        }
    );
    for (kernel, size) in runs {
        match native_checksum(kernel, size, options.portable) {
            Ok(line) => println!("{line}"),
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

pub fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = <Options as clap::Parser>::parse();
    if options.checksums {
        return print_checksums(&options);
    }
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

    let wanted = |kernel: Kernel| options.only.is_none_or(|only| only == kernel);
    let mut cases = Vec::new();
    for &n in &options.sizes {
        if !(wanted(Kernel::Naive) || wanted(Kernel::Blocked)) {
            break;
        }
        // The two GEMMs start from the same memory: one reference for both.
        let expected = if options.ours_only {
            Vec::new()
        } else {
            reference_gemm(n, &cases::gemm_memory(n))
        };
        for kernel in [Kernel::Naive, Kernel::Blocked] {
            if wanted(kernel) {
                cases.push(gemm_case(kernel, n, &expected));
            }
        }
    }
    if wanted(Kernel::Divergence) {
        cases.push(divergence_case(options.divergence_threads));
    }
    let cases = match cases.into_iter().collect::<Result<Vec<Case>, String>>() {
        Ok(cases) => cases,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };

    let mut failed = false;
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    for case in &cases {
        eprintln!("running {} ...", case.launch.name);
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
                    case.launch.name,
                    ours.wave_instructions,
                    seconds(ours.time)
                )),
                Err(message) => {
                    failed = true;
                    notes.push(format!("{}: {message}", case.launch.name));
                }
            }
            continue;
        }
        let (emu, ours) = match (emu, ours) {
            (Ok(emu), Ok(ours)) => (emu, ours),
            (emu, ours) => {
                for message in [emu.err(), ours.err()].into_iter().flatten() {
                    notes.push(format!("{}: {message}", case.launch.name));
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
                case.launch.name
            ));
        }
        match check_reference(case, &ours.memory) {
            Ok(note) => notes.push(format!("{}: {note}", case.launch.name)),
            Err(message) => {
                failed = true;
                notes.push(format!("{}: {message}", case.launch.name));
            }
        }
        rows.push(format!(
            "| {} | {} | {} | {} | {} | {:.1}× | {} |",
            case.launch.name,
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
        let gemms: Vec<&Case> = cases
            .iter()
            .filter(|c| c.launch.name.contains("GEMM"))
            .collect();
        println!(
            "\nTime travel (our engine, {} repetitions taking turns):\n",
            options.reps
        );
        println!("{}", crate::history::HEADER);
        for case in gemms {
            eprintln!("history of {} ...", case.launch.name);
            match crate::history::row(case, options.wave_width, options.portable, options.reps) {
                Ok(row) => println!("{row}"),
                Err(message) => {
                    failed = true;
                    println!("- {}: {message}", case.launch.name);
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

    /// The lines of a checksum file: `kernel size wave-instructions checksum` (the checksum in hex
    /// with `0x`); blank lines and lines starting with `#` are skipped.
    fn parse_checksums(text: &str) -> Result<Vec<Checksum>, String> {
        let mut lines = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || {
                format!(
                    "line {}: not `kernel size wave-instructions 0xchecksum`: {line:?}",
                    number + 1
                )
            };
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [kernel, size, wave_instructions, checksum] = fields[..] else {
                return Err(bad());
            };
            lines.push(Checksum {
                kernel: Kernel::from_name(kernel).ok_or_else(bad)?,
                size: size.parse().map_err(|_| bad())?,
                wave_instructions: wave_instructions.parse().map_err(|_| bad())?,
                checksum: checksum
                    .strip_prefix("0x")
                    .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                    .ok_or_else(bad)?,
            });
        }
        Ok(lines)
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

    /// The file the wasm runner is checked against (`wasm-runner/check.mjs`) must hold what this
    /// engine computes natively, with either of its loops: together the two checks make the wasm
    /// build bit-identical to the native one.
    #[test]
    fn the_wasm_runners_checksums_are_the_native_engines() {
        let file = include_str!("../wasm-runner/checksums.txt");
        let lines = parse_checksums(file).unwrap();
        for kernel in Kernel::ALL {
            assert!(
                lines.iter().any(|line| line.kernel == kernel),
                "checksums.txt has no {} line",
                kernel.name()
            );
        }
        for want in &lines {
            for portable in [false, true] {
                let got = native_checksum(want.kernel, want.size, portable).unwrap();
                assert_eq!(
                    got, *want,
                    "{want} (portable loop: {portable}): ours gives {got}"
                );
            }
        }
    }

    #[test]
    fn a_checksum_line_reads_back_and_a_malformed_one_is_refused() {
        let line = Checksum {
            kernel: Kernel::Divergence,
            size: 4096,
            wave_instructions: 12,
            checksum: 0xAB,
        };
        assert_eq!(line.to_string(), "divergence 4096 12 0x000000ab");
        let text = format!("# comment\n\n{line}\n");
        assert_eq!(parse_checksums(&text), Ok(vec![line]));
        for bad in [
            "gemm 64 1 0x1",
            "naive 64 1 1",
            "naive 64 x 0x1",
            "naive 64 1",
            "naive 64 1 0x1 extra",
        ] {
            assert!(parse_checksums(bad).is_err(), "{bad:?} was accepted");
        }
    }
}
