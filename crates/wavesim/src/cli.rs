//! The command line, as clap sees it. Values stay text here; `spec` parses them so that every
//! mistake gets a message naming the flag and what was wrong.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

#[derive(Parser, Debug)]
#[command(
    name = "wavesim",
    version,
    about = "Run and check WAVE kernels from the command line (the playground's engine, wave-emu's flags)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a kernel and print the requested dumps.
    Run(Box<RunArgs>),
    /// Run two kernels (or one kernel twice) and compare their statistics and results.
    ///
    /// Both runs take the launch flags; a flag spelt with `--b-` (`--b-wave-width 32`) applies to
    /// run B alone, in place of the shared one. Prints a table of the measures (a `*` marks those
    /// that differ), a headline, and whether the two runs left the same device memory. Exit
    /// status 0 when they did, 1 when they did not, 2 when either file or the flags are wrong or
    /// either run traps.
    Compare(Box<CompareArgs>),
    /// Compile a file and print every diagnostic.
    Check(CheckArgs),
    /// Assemble a .wave file into a .wbin binary, byte for byte as wave-asm writes it.
    Asm(AsmArgs),
    /// Print a .wbin binary as WAVE source.
    Dis(DisArgs),
}

#[derive(Args, Debug)]
pub struct AsmArgs {
    /// WAVE assembly source (.wave)
    pub file: PathBuf,

    /// The binary to write [default: FILE with the extension .wbin]
    #[arg(short, long, value_name = "FILE.wbin")]
    pub output: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct DisArgs {
    /// A .wbin binary
    pub file: PathBuf,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// WAVE assembly source (.wave)
    pub file: PathBuf,
}

#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// WAVE assembly source (.wave)
    pub file: PathBuf,

    /// Kernel to run [default: the first kernel of the file]
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,

    #[command(flatten)]
    pub launch: LaunchArgs,

    /// Run by the WAVE spec, or as the reference emulator wave-emu 0.1.2 does
    ///
    /// With wave-emu the machine follows the reference's control flow (departures from the spec
    /// included), its limits and its statistics, and the run prints what the `wave-emu` command
    /// prints for the same program and flags: the dumps (the hex dump first) and --stats on
    /// stdout, or, when the kernel traps or a fill, --arg or dump does not fit, its `Error: …`
    /// line on stderr and exit status 1. docs/spec-departures.md lists the departures and the
    /// few differences left.
    #[arg(long, value_name = "MODE", value_enum, default_value_t = Compat::Spec)]
    pub compat: Compat,

    /// Do not print the front end's warnings on stderr
    #[arg(long)]
    pub quiet: bool,

    #[command(flatten)]
    pub inputs: InputArgs,

    /// Print COUNT u32 values from OFFSET, one per line (repeatable; dumps keep their order)
    #[arg(long, value_name = "OFFSET:COUNT")]
    pub dump_u32: Vec<String>,

    /// Print COUNT f32 values from OFFSET, one per line
    #[arg(long, value_name = "OFFSET:COUNT")]
    pub dump_f32: Vec<String>,

    /// Print COUNT f16 values (2 bytes each) from OFFSET, widened to f32
    #[arg(long, value_name = "OFFSET:COUNT")]
    pub dump_f16: Vec<String>,

    /// Print COUNT bf16 values (2 bytes each) from OFFSET, widened to f32
    #[arg(long, value_name = "OFFSET:COUNT")]
    pub dump_bf16: Vec<String>,

    /// Hex dump of device memory START..END
    #[arg(long, value_name = "START:END")]
    pub dump_memory: Vec<String>,

    /// Print execution statistics after the dumps, in wave-emu's layout and as it counts them
    #[arg(long)]
    pub stats: bool,

    /// Print the playground's own figures after that (SIMD efficiency, lane slots, stack depth)
    #[arg(long)]
    pub extra_stats: bool,

    /// Print every executed wave-instruction and its control-flow events on stderr
    #[arg(long)]
    pub trace: bool,

    /// Write the run's control-flow events to FILE as JSON (docs/trace-format.md), the format
    /// of the playground's "Download trace"
    #[arg(long, value_name = "FILE")]
    pub trace_json: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Run A's WAVE assembly source (.wave or .wbin)
    pub a: PathBuf,

    /// Run B's WAVE assembly source (.wave or .wbin; may be the same file as A)
    pub b: PathBuf,

    // `--kernel`, `--compat` and `--quiet` are declared by each command rather than shared:
    // `compare`'s help speaks of both runs, and `run` lists them in other places.
    /// Kernel to run [default: the first kernel of each file]
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,

    #[command(flatten)]
    pub launch: LaunchArgs,

    #[command(flatten)]
    pub inputs: InputArgs,

    /// Run both by the WAVE spec, or as the reference emulator wave-emu 0.1.2 does
    #[arg(long, value_name = "MODE", value_enum, default_value_t = Compat::Spec)]
    pub compat: Compat,

    /// Do not print the front end's warnings on stderr
    #[arg(long)]
    pub quiet: bool,

    /// Run B's kernel, in place of --kernel
    #[arg(long, value_name = "NAME", help_heading = "Run B only")]
    pub b_kernel: Option<String>,

    /// Run B's grid, in place of --grid
    #[arg(long, value_name = "X,Y,Z", help_heading = "Run B only")]
    pub b_grid: Option<String>,

    /// Run B's workgroup size, in place of --workgroup
    #[arg(long, value_name = "X,Y,Z", help_heading = "Run B only")]
    pub b_workgroup: Option<String>,

    /// Run B's lanes per wave, in place of --wave-width
    #[arg(long, value_name = "N", help_heading = "Run B only")]
    pub b_wave_width: Option<String>,

    /// Run B's local memory, in place of --local-memory
    #[arg(long, value_name = "BYTES", help_heading = "Run B only")]
    pub b_local_memory: Option<String>,

    /// Run B's device memory, in place of --device-memory
    #[arg(long, value_name = "BYTES", help_heading = "Run B only")]
    pub b_device_memory: Option<String>,

    /// Run B's instruction limit, in place of --max-instructions
    #[arg(long, value_name = "N", help_heading = "Run B only")]
    pub b_max_instructions: Option<String>,

    /// Run B's initial registers, in place of every --set-reg (repeatable)
    #[arg(long, value_name = "REG:VALUE", help_heading = "Run B only")]
    pub b_set_reg: Vec<String>,

    /// Run B's files to load, in place of every --arg (repeatable)
    #[arg(long, value_name = "OFFSET:FILE", help_heading = "Run B only")]
    pub b_arg: Vec<String>,

    /// Run B's iota fills, in place of every --fill-iota (repeatable)
    #[arg(
        long,
        value_name = "OFFSET:TYPE:COUNT[:SCALE]",
        help_heading = "Run B only"
    )]
    pub b_fill_iota: Vec<String>,

    /// Run B's zero fills, in place of every --fill-zero (repeatable)
    #[arg(long, value_name = "OFFSET:TYPE:COUNT", help_heading = "Run B only")]
    pub b_fill_zero: Vec<String>,
}

/// The launch's shape and limits, taken alike by `run` and by both runs of `compare`. Flattened
/// into their arguments, the fields keep their names as clap's ids, which `run` and `compare`
/// look up (`workgroup`, to tell a given `--workgroup` from its default).
#[derive(Args, Clone, Debug)]
pub struct LaunchArgs {
    /// Grid size in workgroups (also X or X,Y: missing sizes are 1)
    #[arg(long, value_name = "X,Y,Z", default_value = "1,1,1")]
    pub grid: String,

    /// Workgroup size in threads, as --grid (a kernel's .workgroup_size wins)
    #[arg(long, value_name = "X,Y,Z", default_value = "32,1,1")]
    pub workgroup: String,

    /// Lanes per wave, 1..=64
    #[arg(long, value_name = "N", default_value = "32")]
    pub wave_width: String,

    /// Local memory per workgroup in bytes, K/M suffixes allowed (a kernel's .local_memory wins)
    /// [default: 16384]
    #[arg(long, value_name = "BYTES")]
    pub local_memory: Option<String>,

    /// Device memory in bytes
    #[arg(long, value_name = "BYTES", default_value = "1048576")]
    pub device_memory: String,

    /// Wave-instructions allowed per workgroup (0 = unlimited)
    #[arg(long, value_name = "N", default_value = "10000000")]
    pub max_instructions: String,
}

/// What device memory and the registers hold before a run starts, taken alike by `run` and by
/// both runs of `compare`. A group apart from `LaunchArgs` because `run --help` lists `--compat`
/// and `--quiet` between the two.
#[derive(Args, Clone, Debug)]
pub struct InputArgs {
    /// Initial register value for every thread, e.g. 0:4096 or r1:0x40a00000 (repeatable)
    #[arg(long, value_name = "REG:VALUE")]
    pub set_reg: Vec<String>,

    /// Load a file's bytes into device memory at OFFSET (repeatable; after the fills)
    #[arg(long, value_name = "OFFSET:FILE")]
    pub arg: Vec<String>,

    /// Write COUNT f32 values i*SCALE (default 1) at OFFSET; TYPE is ignored, as in wave-emu
    #[arg(long, value_name = "OFFSET:TYPE:COUNT[:SCALE]")]
    pub fill_iota: Vec<String>,

    /// Write COUNT*4 zero bytes at OFFSET; TYPE is ignored, as in wave-emu (applied first)
    #[arg(long, value_name = "OFFSET:TYPE:COUNT")]
    pub fill_zero: Vec<String>,
}

/// The rules `run --compat` picks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Compat {
    /// WAVE spec v0.4, the playground's machine; a trap is reported at its line
    #[default]
    Spec,
    /// wave-emu 0.1.2, departures from the spec included; a trap prints wave-emu's `Error: …` line
    WaveEmu,
}

/// Clap's ids of the dump flags (the field names), for `ArgMatches::indices_of`.
pub const DUMP_IDS: [&str; 5] = [
    "dump_u32",
    "dump_f32",
    "dump_f16",
    "dump_bf16",
    "dump_memory",
];
