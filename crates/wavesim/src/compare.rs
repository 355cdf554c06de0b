//! `wavesim compare A B`: runs two kernels (or one kernel under two launches) as `run` would,
//! then prints the engine's comparison of them: the table of measures, the headline, and whether
//! the two runs left the same device memory.

use clap::parser::ValueSource;
use clap::ArgMatches;
use wave_engine::compare::{compare_memory, Comparison, RunMeasures};

use crate::cli::{CompareArgs, InputArgs, LaunchArgs, RunArgs};
use crate::run::{self, FlagNames, Loaded};
use crate::source::Failure;

/// How many differing words the verdict names before it only counts them.
const DIFFERENCES_SHOWN: usize = 8;

/// What the comparison printed, and whether the two runs' results differ.
pub struct Compared {
    pub text: String,
    pub results_differ: bool,
}

/// Runs A and B and compares them. A failure (a flag, either file, either run's trap) is reported
/// as `run` reports it, naming the file when `run`'s message would not.
pub fn compare(args: &CompareArgs, matches: &ArgMatches) -> Result<Compared, Failure> {
    let (run_a, run_b, names_b) = run_args(args);
    let none = FlagNames::default();
    // Every flag is read before any file, as `run` does.
    let config_a = run::launch_config(&run_a, &none)?;
    let fills_a = run::fills(&run_a, &none)?;
    let config_b = run::launch_config(&run_b, &names_b)?;
    let fills_b = run::fills(&run_b, &names_b)?;
    let workgroup_a = matches.value_source("workgroup") == Some(ValueSource::CommandLine);
    let workgroup_b = workgroup_a || args.b_workgroup.is_some();

    let a = run::load(&run_a, &config_a, &fills_a, workgroup_a, &none)
        .map_err(|f| naming(f, &run_a))?;
    let b = run::load(&run_b, &config_b, &fills_b, workgroup_b, &names_b)
        .map_err(|f| naming(f, &run_b))?;
    let a = run_to_end(a, &run_a)?;
    let b = run_to_end(b, &run_b)?;

    let comparison = Comparison::new(
        RunMeasures::of(&a.machine, &a.kernel),
        RunMeasures::of(&b.machine, &b.kernel),
    );
    let verdict = compare_memory(
        a.machine.device().bytes(),
        b.machine.device().bytes(),
        DIFFERENCES_SHOWN,
    );
    let mut text = format!(
        "A: {}, kernel `{}`\nB: {}, kernel `{}`\n\n",
        a.file, a.kernel.name, b.file, b.kernel.name
    );
    text.push_str(&table(&comparison));
    text.push('\n');
    text.push_str(&comparison.headline());
    text.push('\n');
    text.push_str(&verdict.sentence());
    text.push('\n');
    Ok(Compared {
        text,
        results_differ: verdict.differs(),
    })
}

/// The measures as an aligned plain-text table: a `*` before each row whose values differ.
fn table(comparison: &Comparison) -> String {
    let rows = comparison.rows();
    let header = ["Measure", "A", "B", "Difference"];
    let mut lines: Vec<(bool, [&str; 4])> = vec![(false, header)];
    for row in &rows {
        let cells = [
            row.measure.label(),
            row.a.as_str(),
            row.b.as_str(),
            row.difference.as_str(),
        ];
        lines.push((row.differs, cells));
    }
    let mut widths = [0; 4];
    for (_, cells) in &lines {
        for (width, cell) in widths.iter_mut().zip(cells) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for (differs, [measure, a, b, difference]) in lines {
        let mark = if differs { '*' } else { ' ' };
        // Labels align left, numbers right, so their digits line up.
        let line = format!(
            "{mark} {measure:<w0$}  {a:>w1$}  {b:>w2$}  {difference}",
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The `run` arguments of A and of B (B's `--b-` flags in place of the shared ones), and how B's
/// messages name its flags.
fn run_args(args: &CompareArgs) -> (RunArgs, RunArgs, FlagNames) {
    let run_a = RunArgs {
        file: args.a.clone(),
        kernel: args.kernel.clone(),
        launch: args.launch.clone(),
        compat: args.compat,
        quiet: args.quiet,
        inputs: args.inputs.clone(),
        dump_u32: Vec::new(),
        dump_f32: Vec::new(),
        dump_f16: Vec::new(),
        dump_bf16: Vec::new(),
        dump_memory: Vec::new(),
        stats: false,
        extra_stats: false,
        trace: false,
        trace_json: None,
    };
    let mut names = FlagNames::default();
    let mut pick = |flag: &'static str, own: &Option<String>, shared: &String| match own {
        Some(value) => {
            names.overridden.push(flag);
            value.clone()
        }
        None => shared.clone(),
    };
    let shared = &args.launch;
    let launch = LaunchArgs {
        grid: pick("--grid", &args.b_grid, &shared.grid),
        workgroup: pick("--workgroup", &args.b_workgroup, &shared.workgroup),
        wave_width: pick("--wave-width", &args.b_wave_width, &shared.wave_width),
        device_memory: pick(
            "--device-memory",
            &args.b_device_memory,
            &shared.device_memory,
        ),
        max_instructions: pick(
            "--max-instructions",
            &args.b_max_instructions,
            &shared.max_instructions,
        ),
        local_memory: match &args.b_local_memory {
            Some(value) => {
                names.overridden.push("--local-memory");
                Some(value.clone())
            }
            None => shared.local_memory.clone(),
        },
    };
    let mut lists = |flag: &'static str, own: &Vec<String>, shared: &Vec<String>| {
        if own.is_empty() {
            shared.clone()
        } else {
            names.overridden.push(flag);
            own.clone()
        }
    };
    let shared = &args.inputs;
    let inputs = InputArgs {
        set_reg: lists("--set-reg", &args.b_set_reg, &shared.set_reg),
        arg: lists("--arg", &args.b_arg, &shared.arg),
        fill_iota: lists("--fill-iota", &args.b_fill_iota, &shared.fill_iota),
        fill_zero: lists("--fill-zero", &args.b_fill_zero, &shared.fill_zero),
    };
    let run_b = RunArgs {
        file: args.b.clone(),
        kernel: args.b_kernel.clone().or_else(|| args.kernel.clone()),
        launch,
        inputs,
        ..run_a.clone()
    };
    (run_a, run_b, names)
}

/// Runs a loaded kernel to its end; a trap is a failure, as in `run`.
fn run_to_end(mut loaded: Loaded, args: &RunArgs) -> Result<Loaded, Failure> {
    let stop = loaded.machine.run_to_end();
    run::ended(
        stop,
        args.compat,
        &loaded.file,
        &loaded.source,
        &loaded.kernel,
        &loaded.machine,
    )
    .map_err(|f| naming(f, args))?;
    Ok(loaded)
}

/// `failure` as `run` words it, with the file named after its `error: ` (or wave-emu's
/// `Error: `) when the message does not name it already: with two files, a message must say
/// which one it is about.
fn naming(failure: Failure, args: &RunArgs) -> Failure {
    let file = args.file.display().to_string();
    let Failure(text) = failure;
    if text.contains(&file) {
        return Failure(text);
    }
    for prefix in ["error: ", "Error: "] {
        if let Some(rest) = text.strip_prefix(prefix) {
            return Failure(format!("{prefix}{file}: {rest}"));
        }
    }
    Failure(format!("{file}: {text}"))
}
