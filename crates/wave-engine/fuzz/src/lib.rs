//! The bodies of the fuzz targets, shared by the cargo-fuzz binaries (`fuzz_targets/`) and by the
//! stable-Rust smoke loop in `crates/wave-engine/tests/fuzz_smoke.rs` (which includes this file
//! by path). Only `wave_engine` and std are used here, so both builds compile it unchanged.
//!
//! The property: whatever the text and the launch, `compile`, `diagnostic::render` and the
//! machine return normally — no panic, no hang — and a run ends in `Finished` or a trap within
//! the instruction budget.

use wave_engine::machine::{Event, LaunchConfig, Machine, Stop};
use wave_engine::syntax::mnemonics::MNEMONICS;
use wave_engine::{compile, diagnostic};

/// Bytes at the front of an input that choose the launch; the rest is the source.
pub const CONFIG_BYTES: usize = 12;

/// Largest per-workgroup instruction budget a fuzz launch gets.
pub const MAX_INSTRUCTIONS: u64 = 20_000;

/// Our own small WAVE programs to mutate (the same files seed the cargo-fuzz corpus).
pub const SEED_PROGRAMS: &[&str] = &[
    include_str!("../corpus-seed/vector_add.wave"),
    include_str!("../corpus-seed/divergent_loops.wave"),
    include_str!("../corpus-seed/wave_ops.wave"),
    include_str!("../corpus-seed/barrier_local.wave"),
    include_str!("../corpus-seed/wide_types.wave"),
    include_str!("../corpus-seed/call_halt.wave"),
    include_str!("../corpus-seed/dialect.wave"),
    include_str!("../corpus-seed/atomics.wave"),
];

/// A launch derived from up to `CONFIG_BYTES` bytes (missing bytes count as 0): wave width
/// 1..=64, up to 48x3x2 threads, up to 3x1x2 workgroups, small memories, a budget ≤ 20,000.
pub fn launch_from(bytes: &[u8]) -> LaunchConfig {
    let b = |i: usize| u32::from(bytes.get(i).copied().unwrap_or(0));
    let mut initial_registers = Vec::new();
    if b(8) & 1 == 1 {
        // Sometimes a register the kernel lacks: the launch must be refused, not crash.
        initial_registers.push(((b(8) >> 1) as u8 % 40, b(9).wrapping_mul(0x0101_0101)));
    }
    LaunchConfig {
        grid: [1 + b(3) % 3, 1, 1 + b(4) % 2],
        workgroup: [1 + b(1) % 48, 1 + b(2) % 3, 1 + (b(2) / 3) % 2],
        wave_width: 1 + b(0) % 64,
        local_memory: b(5) * 16,
        device_memory: b(6) * 32 + b(10) % 4,
        max_instructions: 1 + u64::from(b(7)) * (MAX_INSTRUCTIONS - 1) / 255,
        initial_registers,
    }
}

/// The plain target: bytes → (launch, UTF-8-lossy source) → compile → run every kernel.
/// Returns how many kernels ran on the machine.
pub fn fuzz_bytes(data: &[u8]) -> usize {
    let split = data.len().min(CONFIG_BYTES);
    let (config, text) = data.split_at(split);
    let source = String::from_utf8_lossy(text);
    run_source(&source, config)
}

/// Compiles `source` and runs each of its kernels (at most 4) under the launch from `config`;
/// returns how many kernels the launch accepted and ran.
pub fn run_source(source: &str, config: &[u8]) -> usize {
    let compiled = compile(source);
    let rendered = diagnostic::render(source, &compiled.diagnostics);
    assert_eq!(rendered.is_empty(), compiled.diagnostics.is_empty());
    assert_eq!(compiled.program.is_some(), !compiled.has_errors());
    let Some(program) = compiled.program else {
        return 0;
    };
    let mut ran = 0;
    let launch = launch_from(config);
    let sliced = config.get(11).copied().unwrap_or(0);
    for kernel in program.kernels.iter().take(4) {
        let Ok(mut machine) = Machine::new(kernel, &launch) else {
            continue;
        };
        // Some input so loads see more than zeros.
        for (i, byte) in machine.device_mut().bytes_mut().iter_mut().enumerate() {
            *byte = (i as u8).wrapping_mul(37) ^ sliced;
        }
        let groups: u64 = machine.launch().workgroup_count();
        let stop = if sliced & 1 == 0 {
            machine.run_to_end()
        } else {
            run_sliced(&mut machine, kernel.code.len(), sliced, groups)
        };
        match stop {
            Stop::Finished => assert!(machine.is_finished() && machine.trap().is_none()),
            Stop::Trap(trap) => assert_eq!(machine.trap(), Some(trap)),
            other => panic!("a run to the end stopped with {other:?}"),
        }
        ran += 1;
    }
    ran
}

/// Runs in slices with events and breakpoints (every `stride`-th instruction), stepping single
/// waves now and then, the way the playground drives the machine. Panics if the run does not end
/// within the instruction budget (a hang).
fn run_sliced(machine: &mut Machine, code_len: usize, knob: u8, groups: u64) -> Stop {
    let stride = usize::from(knob >> 1).max(1);
    let breakpoints: Vec<bool> = (0..code_len).map(|pc| pc.is_multiple_of(stride)).collect();
    let mut events: Vec<Event> = Vec::new();
    let budget = machine.launch().max_instructions.max(1);
    // Every call executes at least one instruction, except a breakpoint stop, which is followed
    // by a call that executes one; so this many calls is more than any finishing run needs.
    let limit = 4 * budget * groups.max(1) + 64;
    for call in 0..limit {
        events.clear();
        let stop = if call % 7 == 3 {
            let wave = (call as usize / 7) % machine.workgroup().waves().len().max(1);
            machine.step_wave(wave, 50, &mut events)
        } else {
            machine.run(97, &breakpoints, &mut events)
        };
        match stop {
            Stop::Finished | Stop::Trap(_) => return stop,
            Stop::SliceUsed | Stop::Breakpoint { .. } | Stop::Stepped | Stop::WaveFinished => {}
        }
    }
    panic!("the machine did not finish within {limit} slices (budget {budget} x {groups} groups)");
}

/// A small deterministic generator for the structure-aware mutations.
pub struct Bits<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bits<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bits { data, at: 0 }
    }

    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let v = (usize::from(self.byte()) << 8) | usize::from(self.byte());
        v % n
    }

    pub fn exhausted(&self) -> bool {
        self.at >= self.data.len()
    }
}

/// Tokens a mutation may insert: registers (valid and not), predicates, punctuation, numbers,
/// directives, and every mnemonic the front end knows.
fn token(bits: &mut Bits) -> String {
    const EXTRA: &[&str] = &[
        "r0",
        "r1",
        "r31",
        "r32",
        "r200",
        "r254",
        "r255",
        "r3.hi",
        "p0",
        "p3",
        "p4",
        "!p1",
        "@p1",
        "@!p2",
        "@p0",
        ",",
        ":",
        "lbl:",
        "lbl",
        ".device",
        ".wave",
        ".cached",
        "0x10",
        "-1",
        "4294967295",
        "4294967296",
        "1.5",
        "-2e9",
        "0x7f800000",
        "sr_lane_id",
        "sr_bogus",
        "sr_mma_m",
        ".kernel k",
        ".end",
        ".registers 300",
        ".registers 1",
        ".local_memory 0",
        ".workgroup_size 0, 1, 1",
        ".workgroup_size 65536, 2, 1",
        "if p1",
        "else",
        "endif",
        "loop",
        "endloop",
        "break p2",
        "continue p1",
        "halt",
        "barrier",
        "return",
        "call lbl",
        "\n",
        ";",
        "#",
        "é",
        "\u{0}",
    ];
    if bits.byte().is_multiple_of(3) {
        EXTRA[bits.below(EXTRA.len())].to_string()
    } else {
        MNEMONICS[bits.below(MNEMONICS.len())].name.to_string()
    }
}

/// One structure-aware mutation of `lines`: insert, delete, duplicate, swap or replace whole
/// lines or single tokens, or splice a line from another seed program.
pub fn mutate_once(lines: &mut Vec<String>, bits: &mut Bits) {
    let n = lines.len();
    match bits.byte() % 9 {
        0 if n > 0 => {
            lines.remove(bits.below(n));
        }
        1 if n > 0 => {
            let i = bits.below(n);
            let line = lines[i].clone();
            lines.insert(bits.below(n + 1), line);
        }
        2 if n > 1 => {
            let (i, j) = (bits.below(n), bits.below(n));
            lines.swap(i, j);
        }
        3 => {
            let program = SEED_PROGRAMS[bits.below(SEED_PROGRAMS.len())];
            let donor: Vec<&str> = program.lines().collect();
            let line = donor[bits.below(donor.len())].to_string();
            lines.insert(bits.below(n + 1), line);
        }
        4 | 5 if n > 0 => {
            // Replace, insert or delete one token of a line.
            let i = bits.below(n);
            let mut tokens: Vec<String> = lines[i].split_whitespace().map(str::to_string).collect();
            let t = tokens.len();
            match bits.byte() % 3 {
                0 if t > 0 => tokens[bits.below(t)] = token(bits),
                1 if t > 0 => {
                    tokens.remove(bits.below(t));
                }
                _ => tokens.insert(bits.below(t + 1), token(bits)),
            }
            lines[i] = tokens.join(" ");
        }
        6 if n > 0 => {
            // Flip a character into something random.
            let i = bits.below(n);
            let mut chars: Vec<char> = lines[i].chars().collect();
            let c = char::from(bits.byte());
            if chars.is_empty() {
                chars.push(c);
            } else {
                let at = bits.below(chars.len());
                chars[at] = c;
            }
            lines[i] = chars.into_iter().collect();
        }
        7 => {
            // A fresh line of random tokens.
            let count = 1 + bits.below(5);
            let line: Vec<String> = (0..count).map(|_| token(bits)).collect();
            lines.insert(bits.below(n + 1), line.join(" "));
        }
        _ if n > 0 => {
            // Change a number somewhere on a line.
            let i = bits.below(n);
            let replacement = format!("{}", i64::from(bits.byte()) - 64);
            let line = &lines[i];
            if let Some(pos) = line.find(|c: char| c.is_ascii_digit()) {
                let end = line[pos..]
                    .find(|c: char| !c.is_ascii_digit())
                    .map_or(line.len(), |e| pos + e);
                lines[i] = format!("{}{}{}", &line[..pos], replacement, &line[end..]);
            }
        }
        _ => lines.push(token(bits)),
    }
}

/// The structure-aware target: the first byte picks a seed program, the next `CONFIG_BYTES`
/// the launch, the rest drive mutations of the program's lines.
/// Returns how many kernels ran on the machine.
pub fn fuzz_mutated(data: &[u8]) -> usize {
    let mut bits = Bits::new(data);
    let program = SEED_PROGRAMS[usize::from(bits.byte()) % SEED_PROGRAMS.len()];
    let config: Vec<u8> = (0..CONFIG_BYTES).map(|_| bits.byte()).collect();
    let mut lines: Vec<String> = program.lines().map(str::to_string).collect();
    let mut rounds = 0;
    while !bits.exhausted() && rounds < 64 {
        mutate_once(&mut lines, &mut bits);
        rounds += 1;
    }
    run_source(&lines.join("\n"), &config)
}
