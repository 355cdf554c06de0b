//! `cargo run --release -p wave-bench -- whole-process`: `wavesim run` against the `wave-emu`
//! command line, each timed as a whole process (start-up, reading the kernel and the input file,
//! memory set-up, the run, the result dumped), on the naive GEMM with the inputs and launch of the
//! in-process benchmark. Both run with and without `--dump-f32` of C, their standard output going
//! to a file. Prints a Markdown table of the medians, their ratio and the ratio of the best runs
//! (on a machine shared with other work, a short run is either untouched by a slow spell or
//! slowed by all of it, so its median says more about the neighbours than the best run does),
//! and the commands; exits non-zero when the two dumps differ by a byte or a command fails.
//!
//! `wave-emu` runs the `.wbin` that `wave-asm` made beforehand, while `wavesim` reads the `.wave`
//! source: the assembly step is left out of the reference's time, not ours.
//!
//! Options: `--sizes 256,512`, `--reps N` (timed runs of each command, after one untimed run).

mod programs;
mod timing;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::bench::seconds;
use crate::cases::{gemm_memory, GEMM_NAIVE};
use timing::{in_turns, median, Invocation};

/// The naive GEMM's workgroup (its `.workgroup_size`): one thread per element of C.
const BLOCK: usize = 16;

#[derive(clap::Parser)]
#[command(name = "wave-bench whole-process")]
struct Options {
    /// GEMM sizes, comma-separated: multiples of 16 up to 2048.
    #[arg(long, value_delimiter = ',', default_values_t = [256, 512], value_parser = gemm_size)]
    sizes: Vec<usize>,
    /// Timed runs of each command (after one untimed run of each); the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    reps: u32,
}

fn gemm_size(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 && n.is_multiple_of(BLOCK) && n <= 2048 => Ok(n),
        _ => Err(format!(
            "bad size {text:?}: a multiple of {BLOCK} up to 2048"
        )),
    }
}

/// One GEMM size, its files written: the kernel, its `.wbin`, and A and B.
struct Workload {
    n: usize,
    dir: PathBuf,
}

impl Workload {
    fn prepare(n: usize, root: &Path, wave_asm: &Path) -> Result<Workload, String> {
        let dir = root.join(format!("n{n}"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
        };
        write("gemm_naive.wave", GEMM_NAIVE.as_bytes())?;
        // A then B, the in-process benchmark's seeded values; C is left to the zeroed memory.
        write("ab.bin", &gemm_memory(n)[..2 * n * n * 4])?;
        let assembled = Invocation {
            program: wave_asm.to_path_buf(),
            args: ["gemm_naive.wave", "-o", "gemm_naive.wbin"]
                .map(String::from)
                .to_vec(),
            dir: dir.clone(),
            stdout: "wave-asm.txt".into(),
        };
        assembled.time()?;
        Ok(Workload { n, dir })
    }

    /// The launch and inputs both engines are given, and the dump of C when `dump` is set.
    fn arguments(&self, dump: bool) -> Vec<String> {
        let (n, groups) = (self.n, self.n / BLOCK);
        let matrix = n * n * 4;
        let mut args = vec![
            format!("--workgroup={BLOCK},{BLOCK},1"),
            format!("--grid={groups},{groups},1"),
            format!("--device-memory={}", 3 * matrix),
            "--max-instructions=0".into(),
            "--arg=0:ab.bin".into(),
            format!("--set-reg=0:{n}"),
            "--set-reg=1:0".into(),
            format!("--set-reg=2:{matrix}"),
            format!("--set-reg=3:{}", 2 * matrix),
        ];
        if dump {
            args.push(format!("--dump-f32={}:{}", 2 * matrix, n * n));
        }
        args
    }

    fn invocations(&self, programs: &programs::Programs, dump: bool) -> [Invocation; 2] {
        let suffix = if dump { "dump" } else { "no-dump" };
        let wavesim = Invocation {
            program: programs.wavesim.clone(),
            args: [
                vec!["run".into(), "gemm_naive.wave".into()],
                self.arguments(dump),
            ]
            .concat(),
            dir: self.dir.clone(),
            stdout: format!("wavesim-{suffix}.txt"),
        };
        let wave_emu = Invocation {
            program: programs.wave_emu.clone(),
            args: [vec!["gemm_naive.wbin".into()], self.arguments(dump)].concat(),
            dir: self.dir.clone(),
            stdout: format!("wave-emu-{suffix}.txt"),
        };
        [wavesim, wave_emu]
    }
}

/// `Err` names the first line where the two outputs differ.
fn same_output(ours: &Invocation, reference: &Invocation) -> Result<(), String> {
    let read = |invocation: &Invocation| {
        let path = invocation.dir.join(&invocation.stdout);
        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let (ours, reference) = (read(ours)?, read(reference)?);
    if ours == reference {
        return Ok(());
    }
    let line = ours
        .split(|&b| b == b'\n')
        .zip(reference.split(|&b| b == b'\n'))
        .position(|(a, b)| a != b)
        .map_or_else(
            || "at the end".to_string(),
            |i| format!("at line {}", i + 1),
        );
    Err(format!("the outputs differ {line}"))
}

fn best(times: &[Duration]) -> Duration {
    times.iter().min().copied().unwrap_or_default()
}

fn range(times: &[Duration]) -> String {
    let max = times.iter().max().copied().unwrap_or_default();
    format!("{}–{}", seconds(best(times)), seconds(max))
}

pub fn main() -> ExitCode {
    // The first argument is `whole-process`, which clap takes for the program's name.
    let options = <Options as clap::Parser>::parse_from(std::env::args().skip(1));
    match run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            println!("\nFAILED: see the notes above.");
            ExitCode::FAILURE
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `Ok(false)` when the outputs differ.
fn run(options: &Options) -> Result<bool, String> {
    let programs = programs::build()?;
    let root = programs
        .wavesim
        .parent()
        .and_then(Path::parent)
        .ok_or("no target directory")?
        .join("whole-process");
    let mut identical = true;
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    let mut commands = Vec::new();
    for &n in &options.sizes {
        let workload = Workload::prepare(n, &root, &programs.wave_asm)?;
        for dump in [false, true] {
            let [wavesim, wave_emu] = workload.invocations(&programs, dump);
            eprintln!(
                "timing N={n}{} ...",
                if dump { " with the dump" } else { "" }
            );
            let (ours, reference) = in_turns(&wavesim, &wave_emu, options.reps)?;
            if let Err(difference) = same_output(&wavesim, &wave_emu) {
                identical = false;
                notes.push(format!("N={n}: {difference}"));
            }
            let (ours_median, reference_median) = (median(&ours), median(&reference));
            let (ours_best, reference_best) = (best(&ours), best(&reference));
            let output = if dump {
                format!("C dumped, {} values", n * n)
            } else {
                "none".to_string()
            };
            rows.push(format!(
                "| naive GEMM N={n} | {output} | {} ({}) | {} ({}) | {:.1}× | {:.1}× |",
                seconds(reference_median),
                range(&reference),
                seconds(ours_median),
                range(&ours),
                reference_median.as_secs_f64() / ours_median.as_secs_f64().max(1e-9),
                reference_best.as_secs_f64() / ours_best.as_secs_f64().max(1e-9),
            ));
            if dump && commands.is_empty() {
                commands.push(format!("In {}:", workload.dir.display()));
                commands.push(format!("    {}", wavesim.shell_line("wavesim")));
                commands.push(format!("    {}", wave_emu.shell_line("wave-emu")));
            }
        }
    }
    println!(
        "Whole processes, naive GEMM, wave width 32, standard output to a file; each time is the \
         median of {} runs taking turns (after one untimed run of each), min–max beside it.\n",
        options.reps
    );
    println!("| case | output | wave-emu | wavesim | wave-emu / wavesim | best / best |");
    println!("|---|---|---:|---:|---:|---:|");
    for row in rows {
        println!("{row}");
    }
    println!();
    if identical {
        println!("- The dumps of wavesim and wave-emu are byte-identical at every size.");
    }
    for note in notes {
        println!("- {note}");
    }
    println!(
        "\nThe commands with the dump (wave-emu's .wbin made by `wave-asm gemm_naive.wave`):\n"
    );
    for line in commands {
        println!("{line}");
    }
    Ok(identical)
}
