//! `wavesim run FILE`: compile, configure, fill memory, run (optionally traced), then print the
//! dumps in command-line order and return the statistics that follow them.

use std::fs::File;
use std::io::{self, Read, Write};

use clap::parser::ValueSource;
use clap::ArgMatches;
use wave_engine::compile;
use wave_engine::diagnostic::Severity;
use wave_engine::machine::DEFAULT_LOCAL_MEMORY;
use wave_engine::machine::{Behaviour, Event, LaunchConfig, Machine, ReferenceStats, Stop, Trap};
use wave_engine::program::Kernel;
use wave_engine::{Diagnostic, LaunchField, LaunchSpec};

use crate::cli::{Compat, RunArgs, DUMP_IDS};
use crate::compat;
use crate::dump;
use crate::report;
use crate::source::{self, Failure};
use crate::spec::{self, Dump, Fill, ValueKind};
use crate::trace::{StepState, Tracer};
use wave_trace::{TraceEnd, TraceWriter};

/// Runs the kernel and writes the dumps to stdout; returns the statistics, which follow them.
pub fn run(args: &RunArgs, matches: &ArgMatches) -> Result<String, Failure> {
    // Specs first: a typo in a flag is reported before any work.
    let names = FlagNames::default();
    let config = launch_config(args, &names)?;
    let fills = fills(args, &names)?;
    let dumps = dumps_in_order(args, matches)?;
    let workgroup_given = matches.value_source("workgroup") == Some(ValueSource::CommandLine);
    let Loaded {
        source,
        file,
        kernel,
        mut machine,
    } = load(args, &config, &fills, workgroup_given, &names)?;
    let kernel = &kernel;
    let wave_emu = args.compat == Compat::WaveEmu;
    let device_size = machine.device().len() as u64;
    // wave-emu reads the dumps after the run and fails at the first that does not fit; in that
    // mode they are checked then (`compat::dumps_to_print`).
    let dumps_checked_now = dumps.iter().filter(|_| !wave_emu);
    for (flag, dump) in dumps_checked_now {
        match dump.range() {
            Some((_, end)) if end <= device_size => {}
            range => {
                let (start, end) = range.unwrap_or((0, u64::MAX));
                return Err(out_of_range(
                    args.compat,
                    flag,
                    start,
                    end.saturating_sub(start),
                    device_size,
                ));
            }
        }
    }

    let stop = if args.trace || args.trace_json.is_some() {
        traced_run(&mut machine, &source, kernel, args)?
    } else {
        machine.run_to_end()
    };
    ended(stop, args.compat, &file, &source, kernel, &machine)?;

    // The dumps go out as they are formatted; the statistics are returned, for `main` to print
    // after them. A failed write (a closed pipe: `wavesim run … | head`) ends the dumps early.
    let (dumped, dump_failure) = if wave_emu {
        compat::dumps_to_print(&dumps, device_size)
    } else {
        (dumps.iter().map(|(_, dump)| dump).collect(), None)
    };
    let stdout = io::stdout();
    let mut stdout = stdout.lock();
    let _ = dump::write_dumps(&mut stdout, dumped, machine.device().bytes())
        .and_then(|()| stdout.flush());
    if let Some(failure) = dump_failure {
        return Err(failure);
    }
    let mut statistics = String::new();
    if args.stats {
        let figures = ReferenceStats::of(machine.stats(), &kernel.code);
        statistics.push_str(&dump::reference_stats(&figures));
    }
    if args.extra_stats {
        if args.stats {
            statistics.push('\n');
        }
        statistics.push_str(&dump::playground_stats(machine.stats()));
    }
    Ok(statistics)
}

/// A kernel compiled, picked and loaded into its machine with device memory filled, ready to run.
pub struct Loaded {
    pub source: String,
    /// The file's name as the messages quote it.
    pub file: String,
    pub kernel: Kernel,
    pub machine: Machine,
}

/// Compiles `args.file`, picks its kernel, builds the machine for `config` (in wave-emu's
/// behaviour under `--compat wave-emu`) and fills its device memory: the zero and iota `fills`,
/// then the `--arg` files. `workgroup_given` says whether `--workgroup` was on the command line,
/// for the note when the kernel's `.workgroup_size` overrides it.
pub fn load(
    args: &RunArgs,
    config: &LaunchConfig,
    fills: &[(String, Fill)],
    workgroup_given: bool,
    names: &FlagNames,
) -> Result<Loaded, Failure> {
    let source = source::read(&args.file)?;
    let file = args.file.display().to_string();
    let compiled = compile(&source);
    let Some(program) = compiled.program else {
        let errors: Vec<_> = compiled
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error())
            .collect();
        return Err(located(report::diagnostics(&file, &source, &errors)));
    };
    // Warnings go to stderr as `check` prints them, so a kernel that runs is still told what
    // would not port (stdout stays the dumps alone).
    let warnings: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| !d.is_error())
        .cloned()
        .collect();
    if !args.quiet && !warnings.is_empty() {
        eprint!("{}", report::diagnostics(&file, &source, &warnings));
    }
    let kernel = select_kernel(&program.kernels, args.kernel.as_deref(), &file)?.clone();

    let mut machine = Machine::new(&kernel, config)
        .map_err(|e| Failure::new(format!("{file}: kernel `{}`: {e}", kernel.name)))?;
    if args.compat == Compat::WaveEmu {
        machine.set_behaviour(Behaviour::WaveEmu);
    }
    if let Some(size) = kernel.workgroup_size {
        if workgroup_given && size != config.workgroup {
            eprintln!(
                "note: kernel `{}` declares .workgroup_size {},{},{}, which overrides {} {}",
                kernel.name,
                size[0],
                size[1],
                size[2],
                names.name("--workgroup"),
                args.launch.workgroup
            );
        }
    }

    let device_size = machine.device().len() as u64;
    for (flag, fill) in fills {
        let start = fill.offset as usize;
        let slot = fill
            .count
            .checked_mul(4)
            .filter(|&len| fits(fill.offset, len, device_size))
            .and_then(|len| {
                let bytes = machine.device_mut().bytes_mut();
                bytes.get_mut(start..start + len as usize)
            })
            .ok_or_else(|| {
                let len = fill.count.saturating_mul(4);
                out_of_range(args.compat, flag, fill.offset, len, device_size)
            })?;
        // Written in place: a fill can be most of device memory.
        fill.write_to(slot);
    }
    let arg_flag = names.name("--arg");
    for text in &args.inputs.arg {
        let (offset, path) = spec::parse_arg(text).map_err(|e| bad_spec(&arg_flag, text, &e))?;
        let unreadable = |e: io::Error| {
            Failure::new(format!(
                "{arg_flag} {text}: cannot read {}: {e}",
                path.display()
            ))
        };
        let file = File::open(&path).map_err(unreadable)?;
        let slot = usize::try_from(offset)
            .ok()
            .and_then(|start| machine.device_mut().bytes_mut().get_mut(start..))
            .unwrap_or_default();
        let length = read_into(file, slot).map_err(unreadable)?;
        if !fits(offset, length, device_size) {
            let flag = format!("{arg_flag} {text}");
            return Err(out_of_range(
                args.compat,
                &flag,
                offset,
                length,
                device_size,
            ));
        }
    }
    Ok(Loaded {
        source,
        file,
        kernel,
        machine,
    })
}

/// How the messages name the flags: as typed, or, for run B of `wavesim compare`, with `--b-` in
/// place of `--` for the flags given as `--b-` overrides.
#[derive(Debug, Default)]
pub struct FlagNames {
    /// The flags (`--grid`, …) whose value came from their `--b-` override.
    pub overridden: Vec<&'static str>,
}

impl FlagNames {
    pub fn name(&self, flag: &str) -> String {
        match flag.strip_prefix("--") {
            Some(bare) if self.overridden.contains(&flag) => format!("--b-{bare}"),
            _ => flag.to_string(),
        }
    }
}

/// A run's stop as the command reports it: nothing when the grid finished, else the trap (in
/// wave-emu's words under `--compat wave-emu`, else located at its line).
pub fn ended(
    stop: Stop,
    compat: Compat,
    file: &str,
    source: &str,
    kernel: &Kernel,
    machine: &Machine,
) -> Result<(), Failure> {
    match stop {
        Stop::Finished => Ok(()),
        Stop::Trap(trap) if compat == Compat::WaveEmu => Err(compat::trap_failure(
            &trap,
            kernel,
            machine.workgroup().id(),
        )),
        Stop::Trap(trap) => Err(trap_failure(file, source, kernel, machine, &trap)),
        other => Err(Failure::new(format!(
            "the run stopped unexpectedly: {other:?}"
        ))),
    }
}

fn bad_spec(flag: &str, text: &str, reason: &str) -> Failure {
    Failure::new(format!("invalid {flag} `{text}`: {reason}"))
}

fn fits(offset: u64, len: u64, size: u64) -> bool {
    offset.checked_add(len).is_some_and(|end| end <= size)
}

/// `len` bytes at `offset` for `flag` do not fit in device memory of `size` bytes. wave-emu
/// names the offset, the first byte it checks.
fn out_of_range(compat: Compat, flag: &str, offset: u64, len: u64, size: u64) -> Failure {
    if compat == Compat::WaveEmu {
        return compat::out_of_bounds(offset);
    }
    Failure::new(format!(
        "{flag}: {len} bytes at offset {offset:#x} do not fit in device memory of {size} bytes \
         (raise --device-memory?)"
    ))
}

/// Reads `file` into `slot` from its start, straight into place (an input can be most of device
/// memory), and returns the file's length: more than `slot.len()` when it does not fit, the rest
/// then counted but not kept.
fn read_into(mut file: File, slot: &mut [u8]) -> io::Result<u64> {
    let mut filled = 0;
    while filled < slot.len() {
        match file.read(&mut slot[filled..]) {
            Ok(0) => return Ok(filled as u64),
            Ok(read) => filled += read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled as u64 + io::copy(&mut file, &mut io::sink())?)
}

pub fn launch_config(args: &RunArgs, names: &FlagNames) -> Result<LaunchConfig, Failure> {
    let launch = &args.launch;
    let spec = LaunchSpec {
        grid: launch.grid.clone(),
        workgroup: launch.workgroup.clone(),
        wave_width: launch.wave_width.clone(),
        initial_registers: args.inputs.set_reg.clone(),
        local_memory: launch
            .local_memory
            .clone()
            .unwrap_or_else(|| DEFAULT_LOCAL_MEMORY.to_string()),
        device_memory: launch.device_memory.clone(),
        max_instructions: launch.max_instructions.clone(),
    };
    spec.parse().map_err(|errors| {
        let Some((field, reason)) = errors.fields.first() else {
            return Failure::new("invalid launch flags".to_string());
        };
        let (flag, text) = match field {
            LaunchField::Grid => ("--grid", launch.grid.as_str()),
            LaunchField::Workgroup => ("--workgroup", launch.workgroup.as_str()),
            LaunchField::WaveWidth => ("--wave-width", launch.wave_width.as_str()),
            LaunchField::InitialRegisters => ("--set-reg", spec_text(&args.inputs.set_reg)),
            LaunchField::LocalMemory => ("--local-memory", spec.local_memory.as_str()),
            LaunchField::DeviceMemory => ("--device-memory", launch.device_memory.as_str()),
            LaunchField::MaxInstructions => {
                ("--max-instructions", launch.max_instructions.as_str())
            }
        };
        bad_spec(&names.name(flag), text, reason)
    })
}

/// The first `--set-reg` text that is wrong on its own, to quote in the message.
fn spec_text(texts: &[String]) -> &str {
    let wrong = |text: &&String| {
        let alone = LaunchSpec {
            initial_registers: vec![(*text).clone()],
            ..LaunchSpec::default()
        };
        alone.parse().is_err()
    };
    texts.iter().find(wrong).map_or("", String::as_str)
}

/// Zero fills, then iota fills: wave-emu's order (the `--arg` files come after both).
pub fn fills(args: &RunArgs, names: &FlagNames) -> Result<Vec<(String, Fill)>, Failure> {
    let mut fills = Vec::new();
    let zero = names.name("--fill-zero");
    for text in &args.inputs.fill_zero {
        let fill = spec::parse_fill_zero(text).map_err(|e| bad_spec(&zero, text, &e))?;
        fills.push((format!("{zero} {text}"), fill));
    }
    let iota = names.name("--fill-iota");
    for text in &args.inputs.fill_iota {
        let fill = spec::parse_fill_iota(text).map_err(|e| bad_spec(&iota, text, &e))?;
        fills.push((format!("{iota} {text}"), fill));
    }
    Ok(fills)
}

/// Every dump flag with its position on the command line, sorted by that position.
fn dumps_in_order(args: &RunArgs, matches: &ArgMatches) -> Result<Vec<(String, Dump)>, Failure> {
    let lists: [(&str, &Vec<String>, Option<ValueKind>); 5] = [
        ("--dump-u32", &args.dump_u32, Some(ValueKind::U32)),
        ("--dump-f32", &args.dump_f32, Some(ValueKind::F32)),
        ("--dump-f16", &args.dump_f16, Some(ValueKind::F16)),
        ("--dump-bf16", &args.dump_bf16, Some(ValueKind::Bf16)),
        ("--dump-memory", &args.dump_memory, None),
    ];
    let mut dumps = Vec::new();
    for ((flag, texts, kind), id) in lists.into_iter().zip(DUMP_IDS) {
        let positions: Vec<usize> = matches
            .indices_of(id)
            .map(Iterator::collect)
            .unwrap_or_default();
        for (i, text) in texts.iter().enumerate() {
            let dump = match kind {
                Some(kind) => spec::parse_value_dump(kind, text),
                None => spec::parse_memory_dump(text),
            }
            .map_err(|e| bad_spec(flag, text, &e))?;
            let position = positions.get(i).copied().unwrap_or(usize::MAX);
            dumps.push((position, format!("{flag} {text}"), dump));
        }
    }
    dumps.sort_by_key(|(position, _, _)| *position);
    Ok(dumps
        .into_iter()
        .map(|(_, flag, dump)| (flag, dump))
        .collect())
}

fn select_kernel<'p>(
    kernels: &'p [Kernel],
    name: Option<&str>,
    file: &str,
) -> Result<&'p Kernel, Failure> {
    let names = || {
        kernels
            .iter()
            .map(|k| k.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match name {
        None => kernels.first().ok_or_else(|| {
            Failure::new(format!("{file}: no kernel to run (no .kernel NAME … .end)"))
        }),
        Some(name) => kernels.iter().find(|k| k.name == name).ok_or_else(|| {
            Failure::new(format!(
                "{file}: no kernel named `{name}` (kernels: {})",
                names()
            ))
        }),
    }
}

/// A failure already in the `FILE:LINE:COL: error: …` layout (no `error: ` before it).
fn located(text: String) -> Failure {
    Failure(text.trim_end().to_string())
}

/// A trap as a diagnostic at the faulting instruction, naming where in the grid it happened.
/// Running past the end of the kernel points at its last instruction.
fn trap_failure(
    file: &str,
    source: &str,
    kernel: &Kernel,
    machine: &Machine,
    trap: &Trap,
) -> Failure {
    let [x, y, z] = machine.workgroup().id();
    let lane = trap
        .lane
        .map_or(String::new(), |lane| format!(", lane {lane}"));
    let place = format!(
        "workgroup {} ({x},{y},{z}), wave {}{lane}",
        trap.workgroup, trap.wave
    );
    let span = kernel
        .spans
        .get(trap.pc as usize)
        .or_else(|| kernel.spans.last())
        .copied();
    match span {
        Some(span) => {
            let message = format!("{}, in {place}", trap.kind);
            let diagnostic = Diagnostic::new(Severity::Error, span, message);
            located(report::diagnostics(file, source, &[diagnostic]))
        }
        None => Failure::new(format!("{file}: {}, in {place}", trap.kind)),
    }
}

/// Runs one wave-instruction at a time, writing the text trace to stderr (`--trace`) and the
/// JSON trace to its file (`--trace-json`).
fn traced_run(
    machine: &mut Machine,
    source: &str,
    kernel: &Kernel,
    args: &RunArgs,
) -> Result<Stop, Failure> {
    let tracer = args
        .trace
        .then(|| Tracer::new(source, kernel, machine.launch().wave_width));
    let json_failure = |path: &std::path::Path, e: std::io::Error| {
        Failure::new(format!(
            "--trace-json: cannot write {}: {e}",
            path.display()
        ))
    };
    let mut json = match &args.trace_json {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| json_failure(path, e))?;
            let out = std::io::BufWriter::new(file);
            let writer = TraceWriter::new(out, kernel, source, machine.launch(), 0)
                .map_err(|e| json_failure(path, e))?;
            Some((path, writer))
        }
        None => None,
    };
    let stderr = std::io::stderr();
    let mut text = std::io::BufWriter::new(stderr.lock());
    let mut events: Vec<Event> = Vec::new();
    let stop = loop {
        events.clear();
        // Moving on to the next workgroup or releasing a barrier belongs to the step that
        // follows it (its events are printed with that step).
        if let Err(stop) = machine.advance_to_ready_wave(&mut events) {
            break stop;
        }
        let workgroup = machine.workgroup();
        let Some(wave) = workgroup.pick() else {
            break machine.run(0, &[], &mut events);
        };
        let state = &workgroup.waves()[wave];
        let before = StepState {
            workgroup: workgroup.id(),
            wave: wave as u32,
            pc: state.pc(),
            active: state.active(),
            depth: state.stack().len(),
        };
        let step = machine.step_count();
        let stop = machine.run(1, &[], &mut events);
        if let Some(tracer) = &tracer {
            let _ = text.write_all(tracer.step(&before).as_bytes());
            let _ = text.write_all(tracer.events(before.wave, &events).as_bytes());
        }
        if let Some((path, writer)) = &mut json {
            writer
                .step(step + 1, before.workgroup, &events)
                .map_err(|e| json_failure(path, e))?;
        }
        if stop != Stop::SliceUsed {
            break stop;
        }
    };
    let _ = text.flush();
    if let Some((path, writer)) = json {
        let end = match stop {
            Stop::Finished => TraceEnd::Finished,
            Stop::Trap(trap) => TraceEnd::trapped(&trap, machine.workgroup().id(), kernel),
            _ => TraceEnd::Paused,
        };
        writer
            .finish(machine.step_count(), &end)
            .map_err(|e| json_failure(path, e))?;
    }
    Ok(stop)
}
