//! Data-driven machine fixtures: every `tests/fixtures/*.wave` file is a kernel whose launch
//! configuration and expected results are written inside it, as comment lines starting with `;!`.
//! Each fixture is compiled (it must compile without errors), run on the [`Machine`] and checked.
//! The expectations were derived by hand from the instructions' documented results and the
//! spec-first control flow (docs/spec-departures.md), never copied from a run.
//!
//! # Directive format
//!
//! A directive is a line whose first non-blank characters are `;!`. Since `;` starts a WAVE
//! comment, the assembler ignores them. Numbers are decimal or `0x` hex (`wave_engine::numbers`,
//! `_` separators allowed); a negative value (a register, memory or expected value) is
//! stored as its two's complement. Unknown directives and malformed values fail the fixture.
//!
//! Launch configuration (defaults: one workgroup of 4x1x1, wave width 4, 1024 bytes of device
//! memory, 1024 bytes of local memory, budget 100000 wave-instructions per workgroup):
//! - `;! kernel NAME` — the kernel to run (default: the first one).
//! - `;! workgroup X[,Y[,Z]]`, `;! grid X[,Y[,Z]]`, `;! wave-width N`
//! - `;! device-memory BYTES`, `;! local-memory BYTES`, `;! max-instructions N`
//! - `;! set-reg R:VALUE` — initial value of rR in every thread (repeatable).
//! - `;! memory-T ADDR: V V …` — initial device memory, consecutive values of type T, where T is
//!   `u8`, `u16`, `u32`, `u64`, `f32` or `f64`. Floats are decimal, `inf`, `-inf`, `nan` or
//!   `0x` raw bits.
//!
//! Expectations, checked after the run:
//! - `;! expect-T ADDR: V V …` — device memory holds these values (T as above). Floats compare
//!   by exact bits (so -0 ≠ +0), except `nan`, which accepts any NaN.
//! - `;! expect-f32 ADDR within TOL: V …` — floats within an absolute tolerance.
//! - `;! expect-reg wave W rN: V V …` — register rN of lanes 0, 1, … of wave W (last workgroup);
//!   `;! expect-reg wave W rN f32: …` writes the values as f32 (exact bits).
//! - `;! expect-pred wave W pN: MASK` and `;! expect-halted wave W: MASK` — lane masks written
//!   as `0`/`1` characters, lane 0 leftmost, one character per lane of the wave.
//! - `;! expect-trap KIND [line N] [lane L] [wave W] [workgroup G] [address A]` — the run must
//!   end in this trap. KIND is one of `device-out-of-bounds`, `local-out-of-bounds`,
//!   `stack-overflow`, `call-overflow`, `return-inside-construct`, `ran-off-end`,
//!   `budget-exceeded`. Without `expect-trap` the run must finish. For `ran-off-end`, `line` is
//!   the kernel's last instruction.
//! - `;! expect-stats KEY N …` — keys: `wave-instructions`, `active-lanes`, `lane-slots`,
//!   `divergent`, `max-depth`, `barriers`, `waves`, `workgroups`.
//!
//! Execution traces of one wave of the first workgroup, one entry per instruction the wave
//! executed, in order (repeating a directive for the same wave appends to it):
//! - `;! expect-masks wave W: MASK MASK …` — the active mask before each instruction.
//! - `;! expect-depths wave W: D D …` — the divergence-stack depth before each instruction.
//! - `;! expect-lines wave W: L L …` — the source line of each instruction.
//! - `;! expect-trace wave W: LINE:MASK:DEPTH …` — all three at once, compactly.
//!
//! Failures name the fixture file and the directive's line, with expected and actual values.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wave_engine::compile;
use wave_engine::machine::{LaunchConfig, Machine, MemorySpace, NoEvents, Stop, TrapKind};
use wave_engine::numbers::{parse_dims, parse_int_bits, parse_u32, parse_u32_bits, parse_u64};

const DEFAULT_BUDGET: u64 = 100_000;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ty {
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

impl Ty {
    fn parse(s: &str) -> Option<Ty> {
        Some(match s {
            "u8" => Ty::U8,
            "u16" => Ty::U16,
            "u32" => Ty::U32,
            "u64" => Ty::U64,
            "f32" => Ty::F32,
            "f64" => Ty::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Ty::U8 => 1,
            Ty::U16 => 2,
            Ty::U32 | Ty::F32 => 4,
            Ty::U64 | Ty::F64 => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
}

/// One expected or initial memory value: raw little-endian bits, or "any NaN".
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Bits(u64),
    AnyNan,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum TraceKind {
    Masks,
    Depths,
    Lines,
    Full,
}

#[derive(Clone, Debug, PartialEq)]
enum Check {
    Memory {
        ty: Ty,
        address: u32,
        values: Vec<Value>,
        tolerance: Option<f64>,
    },
    Register {
        wave: usize,
        register: u8,
        values: Vec<u32>,
    },
    Predicate {
        wave: usize,
        predicate: usize,
        mask: String,
    },
    Halted {
        wave: usize,
        mask: String,
    },
    Trap(TrapExpectation),
    Stats(Vec<(String, u64)>),
}

#[derive(Clone, Debug, PartialEq, Default)]
struct TrapExpectation {
    kind: String,
    line: Option<u32>,
    lane: Option<u32>,
    wave: Option<u32>,
    workgroup: Option<u32>,
    address: Option<u32>,
}

#[derive(Debug, Default)]
struct Fixture {
    kernel: Option<String>,
    config: LaunchConfig,
    memory: Vec<(u32, Ty, Vec<Value>)>,
    /// (directive line, check)
    checks: Vec<(usize, Check)>,
    /// (wave, kind) → (first directive line, entries)
    traces: BTreeMap<(usize, u8), (usize, TraceKind, Vec<String>)>,
}

fn parse_value(ty: Ty, s: &str) -> Result<Value, String> {
    if ty.is_float() {
        if s == "nan" {
            return Ok(Value::AnyNan);
        }
        if s.starts_with("0x") {
            return parse_int_bits(s, ty.size() as u32 * 8).map(Value::Bits);
        }
        let f: f64 = match s {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => s.parse().map_err(|e| format!("bad float `{s}`: {e}"))?,
        };
        return Ok(Value::Bits(if ty == Ty::F32 {
            (f as f32).to_bits() as u64
        } else {
            f.to_bits()
        }));
    }
    parse_int_bits(s, ty.size() as u32 * 8).map(Value::Bits)
}

fn parse_mask(s: &str) -> Result<String, String> {
    if s.is_empty() || s.len() > 64 || !s.chars().all(|c| c == '0' || c == '1') {
        return Err(format!(
            "bad lane mask `{s}` (want 0/1 characters, lane 0 first)"
        ));
    }
    Ok(s.to_string())
}

/// `wave W` prefix of wave-scoped directives; returns the wave and the rest.
fn parse_wave(rest: &str) -> Result<(usize, &str), String> {
    let rest = rest
        .strip_prefix("wave ")
        .ok_or_else(|| "expected `wave W`".to_string())?
        .trim_start();
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (num, rest) = rest.split_at(digits);
    let wave = parse_u32(num)? as usize;
    Ok((wave, rest.trim_start()))
}

/// Splits `HEAD: VALUES` at the first colon.
fn split_colon(s: &str) -> Result<(&str, Vec<&str>), String> {
    let (head, tail) = s
        .split_once(':')
        .ok_or_else(|| format!("expected `…: values` in `{s}`"))?;
    Ok((head.trim(), tail.split_whitespace().collect()))
}

fn parse_directive(fixture: &mut Fixture, line: usize, text: &str) -> Result<(), String> {
    let (name, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let rest = rest.trim();
    match name {
        "kernel" => fixture.kernel = Some(rest.to_string()),
        "workgroup" => fixture.config.workgroup = parse_dims(rest)?,
        "grid" => fixture.config.grid = parse_dims(rest)?,
        "wave-width" => fixture.config.wave_width = parse_u32(rest)?,
        "device-memory" => fixture.config.device_memory = parse_u32(rest)?,
        "local-memory" => fixture.config.local_memory = parse_u32(rest)?,
        "max-instructions" => fixture.config.max_instructions = parse_u64(rest)?,
        "set-reg" => {
            let (r, v) = rest.split_once(':').ok_or("expected `set-reg R:VALUE`")?;
            let r = r.trim().trim_start_matches('r');
            let register = u8::try_from(parse_u32(r)?).map_err(|_| "register too large")?;
            fixture
                .config
                .initial_registers
                .push((register, parse_u32_bits(v)?));
        }
        "expect-reg" => {
            let (wave, rest) = parse_wave(rest)?;
            let (head, values) = split_colon(rest)?;
            let (r, float) = match head.strip_suffix(" f32") {
                Some(r) => (r.trim(), true),
                None => (head, false),
            };
            let r = r.strip_prefix('r').ok_or("expected `rN` or `rN f32`")?;
            let register = u8::try_from(parse_u32(r)?).map_err(|_| "register too large")?;
            let values = values
                .iter()
                .map(|v| {
                    if float {
                        match parse_value(Ty::F32, v)? {
                            Value::Bits(b) => Ok(b as u32),
                            Value::AnyNan => Err("write NaN registers as bits".to_string()),
                        }
                    } else {
                        parse_u32_bits(v)
                    }
                })
                .collect::<Result<Vec<_>, _>>()?;
            fixture.checks.push((
                line,
                Check::Register {
                    wave,
                    register,
                    values,
                },
            ));
        }
        "expect-pred" => {
            let (wave, rest) = parse_wave(rest)?;
            let (head, values) = split_colon(rest)?;
            let predicate = head
                .strip_prefix('p')
                .and_then(|p| p.parse::<usize>().ok())
                .filter(|&p| p < 4)
                .ok_or("expected `p0`..`p3`")?;
            let [mask] = values[..] else {
                return Err("expected one mask".into());
            };
            let mask = parse_mask(mask)?;
            fixture.checks.push((
                line,
                Check::Predicate {
                    wave,
                    predicate,
                    mask,
                },
            ));
        }
        "expect-halted" => {
            let (wave, rest) = parse_wave(rest)?;
            let (_, values) = split_colon(rest)?;
            let [mask] = values[..] else {
                return Err("expected one mask".into());
            };
            let mask = parse_mask(mask)?;
            fixture.checks.push((line, Check::Halted { wave, mask }));
        }
        "expect-trap" => {
            let mut words = rest.split_whitespace();
            let kind = words.next().ok_or("expected a trap kind")?;
            if !TRAP_KINDS.contains(&kind) {
                return Err(format!("unknown trap kind `{kind}`"));
            }
            let mut trap = TrapExpectation {
                kind: kind.to_string(),
                ..TrapExpectation::default()
            };
            while let Some(key) = words.next() {
                let value = parse_u32(words.next().ok_or("missing value")?)?;
                match key {
                    "line" => trap.line = Some(value),
                    "lane" => trap.lane = Some(value),
                    "wave" => trap.wave = Some(value),
                    "workgroup" => trap.workgroup = Some(value),
                    "address" => trap.address = Some(value),
                    _ => return Err(format!("unknown trap field `{key}`")),
                }
            }
            fixture.checks.push((line, Check::Trap(trap)));
        }
        "expect-stats" => {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.is_empty() || !words.len().is_multiple_of(2) {
                return Err("expected `KEY N` pairs".into());
            }
            let mut pairs = Vec::new();
            for pair in words.chunks(2) {
                if !STAT_KEYS.contains(&pair[0]) {
                    return Err(format!("unknown statistic `{}`", pair[0]));
                }
                pairs.push((pair[0].to_string(), parse_u64(pair[1])?));
            }
            fixture.checks.push((line, Check::Stats(pairs)));
        }
        "expect-masks" | "expect-depths" | "expect-lines" | "expect-trace" => {
            let kind = match name {
                "expect-masks" => TraceKind::Masks,
                "expect-depths" => TraceKind::Depths,
                "expect-lines" => TraceKind::Lines,
                _ => TraceKind::Full,
            };
            let (wave, rest) = parse_wave(rest)?;
            let entries = rest
                .strip_prefix(':')
                .ok_or("expected `wave W: entries`")?
                .split_whitespace()
                .map(str::to_string);
            let slot = fixture
                .traces
                .entry((wave, kind as u8))
                .or_insert((line, kind, Vec::new()));
            slot.2.extend(entries);
        }
        _ => {
            if let Some(ty) = name.strip_prefix("memory-") {
                let ty = Ty::parse(ty).ok_or_else(|| format!("unknown type in `{name}`"))?;
                let (head, values) = split_colon(rest)?;
                let values = values
                    .iter()
                    .map(|v| parse_value(ty, v))
                    .collect::<Result<Vec<_>, _>>()?;
                fixture.memory.push((parse_u32(head)?, ty, values));
            } else if let Some(ty) = name.strip_prefix("expect-") {
                let ty = Ty::parse(ty).ok_or_else(|| format!("unknown directive `{name}`"))?;
                let (head, values) = split_colon(rest)?;
                let (address, tolerance) = match head.split_once(" within ") {
                    Some((a, t)) if ty.is_float() => (
                        a.trim(),
                        Some(t.trim().parse::<f64>().map_err(|e| e.to_string())?),
                    ),
                    Some(_) => return Err("`within` needs a float type".into()),
                    None => (head, None),
                };
                let values = values
                    .iter()
                    .map(|v| parse_value(ty, v))
                    .collect::<Result<Vec<_>, _>>()?;
                if values.is_empty() {
                    return Err("no values".into());
                }
                fixture.checks.push((
                    line,
                    Check::Memory {
                        ty,
                        address: parse_u32(address)?,
                        values,
                        tolerance,
                    },
                ));
            } else {
                return Err(format!("unknown directive `{name}`"));
            }
        }
    }
    Ok(())
}

const TRAP_KINDS: [&str; 7] = [
    "device-out-of-bounds",
    "local-out-of-bounds",
    "stack-overflow",
    "call-overflow",
    "return-inside-construct",
    "ran-off-end",
    "budget-exceeded",
];

const STAT_KEYS: [&str; 8] = [
    "wave-instructions",
    "active-lanes",
    "lane-slots",
    "divergent",
    "max-depth",
    "barriers",
    "waves",
    "workgroups",
];

fn parse_fixture(source: &str) -> Result<Fixture, Vec<String>> {
    let mut fixture = Fixture {
        config: LaunchConfig {
            workgroup: [4, 1, 1],
            wave_width: 4,
            device_memory: 1024,
            local_memory: 1024,
            max_instructions: DEFAULT_BUDGET,
            ..LaunchConfig::default()
        },
        ..Fixture::default()
    };
    let mut errors = Vec::new();
    for (index, text) in source.lines().enumerate() {
        let line = index + 1;
        if let Some(directive) = text.trim_start().strip_prefix(";!") {
            if let Err(e) = parse_directive(&mut fixture, line, directive.trim()) {
                errors.push(format!("line {line}: {e}"));
            }
        }
    }
    if errors.is_empty() {
        Ok(fixture)
    } else {
        Err(errors)
    }
}

fn mask_string(mask: u64, width: u32) -> String {
    (0..width)
        .map(|l| if mask >> l & 1 != 0 { '1' } else { '0' })
        .collect()
}

fn trap_kind_name(kind: &TrapKind) -> &'static str {
    match kind {
        TrapKind::MemoryOutOfBounds {
            space: MemorySpace::Device,
            ..
        } => "device-out-of-bounds",
        TrapKind::MemoryOutOfBounds {
            space: MemorySpace::Local,
            ..
        } => "local-out-of-bounds",
        TrapKind::StackOverflow => "stack-overflow",
        TrapKind::CallStackOverflow => "call-overflow",
        TrapKind::ReturnInsideConstruct => "return-inside-construct",
        TrapKind::RanOffEnd => "ran-off-end",
        TrapKind::BudgetExceeded { .. } => "budget-exceeded",
        // Traps of `Behaviour::WaveEmu` only; fixtures run in spec mode.
        TrapKind::ElseWithoutIf => "else-without-if",
        TrapKind::EndIfWithoutIf => "endif-without-if",
        TrapKind::EndLoopWithoutLoop => "endloop-without-loop",
        TrapKind::BreakOutsideLoop => "break-outside-loop",
        TrapKind::ContinueOutsideLoop => "continue-outside-loop",
        TrapKind::BarrierDeadlock => "barrier-deadlock",
    }
}

fn encode(ty: Ty, bits: u64) -> Vec<u8> {
    bits.to_le_bytes()[..ty.size()].to_vec()
}

fn show(ty: Ty, bits: u64) -> String {
    match ty {
        Ty::F32 => format!("{:?} (0x{:08x})", f32::from_bits(bits as u32), bits),
        Ty::F64 => format!("{:?} (0x{:016x})", f64::from_bits(bits), bits),
        _ => format!("{bits} (0x{bits:x})"),
    }
}

/// Runs one fixture; returns its failures (empty when it passes).
fn run_fixture(name: &str, source: &str) -> Vec<String> {
    let fail = |line: usize, msg: String| format!("{name}:{line}: {msg}");
    let fixture = match parse_fixture(source) {
        Ok(f) => f,
        Err(errors) => return errors.into_iter().map(|e| format!("{name}: {e}")).collect(),
    };
    let compiled = compile(source);
    let Some(program) = compiled.program else {
        return vec![fail(
            0,
            format!(
                "does not compile:\n{}",
                wave_engine::diagnostic::render(
                    source,
                    &compiled
                        .diagnostics
                        .iter()
                        .filter(|d| d.is_error())
                        .cloned()
                        .collect::<Vec<_>>()
                )
            ),
        )];
    };
    let kernel = match &fixture.kernel {
        Some(k) => program.kernel(k),
        None => program.kernels.first(),
    };
    let Some(kernel) = kernel else {
        return vec![fail(0, "kernel not found".into())];
    };
    let mut machine = match Machine::new(kernel, &fixture.config) {
        Ok(m) => m,
        Err(e) => return vec![fail(0, format!("launch rejected: {e}"))],
    };
    if let Err(message) = write_initial_memory(&mut machine, &fixture) {
        return vec![fail(0, message)];
    }

    // Run one wave-instruction at a time, recording the state of the wave about to execute.
    let width = machine.launch().wave_width;
    let mut traces: BTreeMap<usize, Vec<(u32, String, u32)>> = BTreeMap::new();
    let stop = loop {
        let before_index = machine.workgroup().index();
        let before_executed = machine.workgroup().executed();
        let snapshot: Vec<(u32, u64, u32)> = machine
            .workgroup()
            .waves()
            .iter()
            .map(|w| (w.pc(), w.active(), w.stack().len() as u32))
            .collect();
        let stop = machine.run(1, &[], &mut NoEvents);
        let wg = machine.workgroup();
        if wg.index() == 0 && before_index == 0 && wg.executed() == before_executed + 1 {
            let n = wg.waves().len();
            let wave = (wg.next_pick() + n - 1) % n;
            let (pc, active, depth) = snapshot[wave];
            let line = kernel.lines.get(pc as usize).copied().unwrap_or(0);
            traces
                .entry(wave)
                .or_default()
                .push((line, mask_string(active, width), depth));
        }
        match stop {
            Stop::SliceUsed => continue,
            other => break other,
        }
    };

    let mut failures = Vec::new();
    // The same launch run in one go, on the CPU's fastest loop and on the portable one, must end
    // in exactly the same state as the instruction-by-instruction run above.
    if let Some(difference) = compare_with_whole_runs(kernel, &fixture, &machine, stop) {
        failures.push(fail(0, difference));
    }
    let expected_trap = fixture.checks.iter().find_map(|(line, c)| match c {
        Check::Trap(t) => Some((*line, t)),
        _ => None,
    });
    match (stop, expected_trap) {
        (Stop::Finished, None) => {}
        (Stop::Trap(trap), Some((line, want))) => {
            // Running off the end has no instruction of its own: it names the last one.
            let actual_line = kernel
                .lines
                .get(trap.pc as usize)
                .or(kernel.lines.last())
                .copied();
            let actual_address = match trap.kind {
                TrapKind::MemoryOutOfBounds { address, .. } => Some(address),
                _ => None,
            };
            let mut mismatches = Vec::new();
            if trap_kind_name(&trap.kind) != want.kind {
                mismatches.push(format!(
                    "kind: expected {}, got {}",
                    want.kind,
                    trap_kind_name(&trap.kind)
                ));
            }
            let fields = [
                ("line", want.line, actual_line),
                ("lane", want.lane, trap.lane),
                ("wave", want.wave, Some(trap.wave)),
                ("workgroup", want.workgroup, Some(trap.workgroup)),
                ("address", want.address, actual_address),
            ];
            for (field, want, got) in fields {
                if want.is_some() && want != got {
                    mismatches.push(format!("{field}: expected {want:?}, got {got:?}"));
                }
            }
            if !mismatches.is_empty() {
                failures.push(fail(
                    line,
                    format!("trap differs ({trap:?}): {}", mismatches.join("; ")),
                ));
            }
        }
        (stop, Some((line, want))) => failures.push(fail(
            line,
            format!(
                "expected trap {}, but the run ended with {stop:?}",
                want.kind
            ),
        )),
        (stop, None) => failures.push(fail(
            0,
            format!(
                "expected the run to finish, got {stop:?} at line {:?}",
                match stop {
                    Stop::Trap(t) => kernel.lines.get(t.pc as usize).copied(),
                    _ => None,
                }
            ),
        )),
    }

    let wg = machine.workgroup();
    let wave_at = |line: usize, w: usize| {
        wg.waves().get(w).ok_or_else(|| {
            fail(
                line,
                format!("no wave {w} (the workgroup has {})", wg.waves().len()),
            )
        })
    };
    for (line, check) in &fixture.checks {
        let line = *line;
        match check {
            Check::Trap(_) => {}
            Check::Memory {
                ty,
                address,
                values,
                tolerance,
            } => {
                let bytes = machine.device().bytes();
                for (i, want) in values.iter().enumerate() {
                    let at = *address as usize + i * ty.size();
                    let Some(slice) = bytes.get(at..at + ty.size()) else {
                        failures.push(fail(line, format!("address {at} is out of bounds")));
                        break;
                    };
                    let mut raw = [0u8; 8];
                    raw[..ty.size()].copy_from_slice(slice);
                    let got = u64::from_le_bytes(raw);
                    let as_f64 = |bits: u64| match ty {
                        Ty::F32 => f32::from_bits(bits as u32) as f64,
                        _ => f64::from_bits(bits),
                    };
                    let ok = match (want, tolerance) {
                        (Value::AnyNan, _) => as_f64(got).is_nan(),
                        (Value::Bits(w), Some(tol)) => (as_f64(*w) - as_f64(got)).abs() <= *tol,
                        (Value::Bits(w), None) => *w == got,
                    };
                    if !ok {
                        let want = match want {
                            Value::AnyNan => "NaN".to_string(),
                            Value::Bits(w) => show(*ty, *w),
                        };
                        failures.push(fail(
                            line,
                            format!(
                                "{ty:?} at address {at} (value #{i}): expected {want}, got {}",
                                show(*ty, got)
                            ),
                        ));
                    }
                }
            }
            Check::Register {
                wave,
                register,
                values,
            } => match wave_at(line, *wave) {
                Err(e) => failures.push(e),
                Ok(w) => {
                    let got: Vec<u32> = (0..values.len() as u32)
                        .map(|lane| {
                            if lane < w.width() && u32::from(*register) < w.register_count() {
                                w.register(*register, lane)
                            } else {
                                u32::MAX
                            }
                        })
                        .collect();
                    if &got != values {
                        failures.push(fail(
                            line,
                            format!("wave {wave} r{register}: expected {values:?}, got {got:?}"),
                        ));
                    }
                }
            },
            Check::Predicate {
                wave,
                predicate,
                mask,
            } => match wave_at(line, *wave) {
                Err(e) => failures.push(e),
                Ok(w) => {
                    let got = mask_string(w.predicates()[*predicate], w.width());
                    if &got != mask {
                        failures.push(fail(
                            line,
                            format!("wave {wave} p{predicate}: expected {mask}, got {got}"),
                        ));
                    }
                }
            },
            Check::Halted { wave, mask } => match wave_at(line, *wave) {
                Err(e) => failures.push(e),
                Ok(w) => {
                    let got = mask_string(w.halted(), w.width());
                    if &got != mask {
                        failures.push(fail(
                            line,
                            format!("wave {wave} halted lanes: expected {mask}, got {got}"),
                        ));
                    }
                }
            },
            Check::Stats(pairs) => {
                let stats = machine.stats();
                for (key, want) in pairs {
                    let got = match key.as_str() {
                        "wave-instructions" => stats.wave_instructions,
                        "active-lanes" => stats.active_lane_instructions,
                        "lane-slots" => stats.lane_slots,
                        "divergent" => stats.divergent_branches,
                        "max-depth" => u64::from(stats.max_stack_depth),
                        "barriers" => stats.barriers,
                        "waves" => stats.waves_executed,
                        _ => stats.workgroups_executed,
                    };
                    if got != *want {
                        failures.push(fail(
                            line,
                            format!("statistic {key}: expected {want}, got {got}"),
                        ));
                    }
                }
            }
        }
    }

    for ((wave, _), (line, kind, entries)) in &fixture.traces {
        let actual = traces.get(wave).cloned().unwrap_or_default();
        let render = |(l, m, d): &(u32, String, u32)| match kind {
            TraceKind::Masks => m.clone(),
            TraceKind::Depths => d.to_string(),
            TraceKind::Lines => l.to_string(),
            TraceKind::Full => format!("{l}:{m}:{d}"),
        };
        let actual: Vec<String> = actual.iter().map(render).collect();
        if &actual != entries {
            let first = actual
                .iter()
                .zip(entries)
                .position(|(a, e)| a != e)
                .unwrap_or(actual.len().min(entries.len()));
            let mut msg = format!(
                "wave {wave} {kind:?} trace differs at entry #{first} (expected {}, got {}); lengths {} vs {}\n",
                entries.get(first).map_or("<end>", String::as_str),
                actual.get(first).map_or("<end>", String::as_str),
                entries.len(),
                actual.len()
            );
            let _ = writeln!(msg, "    expected: {}", entries.join(" "));
            let _ = write!(msg, "    actual:   {}", actual.join(" "));
            failures.push(fail(*line, msg));
        }
    }
    failures
}

/// Writes the fixture's `memory` directives into device memory.
fn write_initial_memory(machine: &mut Machine, fixture: &Fixture) -> Result<(), String> {
    for (address, ty, values) in &fixture.memory {
        let mut offset = *address as usize;
        for value in values {
            let Value::Bits(bits) = value else {
                return Err("`nan` as an initial value: write its bits".into());
            };
            let bytes = encode(*ty, *bits);
            let slot = machine
                .device_mut()
                .bytes_mut()
                .get_mut(offset..offset + bytes.len())
                .ok_or_else(|| format!("initial memory at {offset} is out of bounds"))?;
            slot.copy_from_slice(&bytes);
            offset += bytes.len();
        }
    }
    Ok(())
}

/// Runs the fixture's launch again, all at once (so in lockstep where the waves allow it), on
/// the CPU's fastest run loop and on the portable one, and names the first difference from
/// `stepped` (device memory, statistics, how it stopped, the last workgroup's waves and local
/// memory).
fn compare_with_whole_runs(
    kernel: &wave_engine::program::Kernel,
    fixture: &Fixture,
    stepped: &Machine,
    stepped_stop: Stop,
) -> Option<String> {
    compare_with_whole_run(kernel, fixture, stepped, stepped_stop, false)
        .map(|difference| format!("on the fastest loop: {difference}"))
        .or_else(|| {
            compare_with_whole_run(kernel, fixture, stepped, stepped_stop, true)
                .map(|difference| format!("on the portable loop: {difference}"))
        })
}

fn compare_with_whole_run(
    kernel: &wave_engine::program::Kernel,
    fixture: &Fixture,
    stepped: &Machine,
    stepped_stop: Stop,
    portable: bool,
) -> Option<String> {
    let mut machine = Machine::new(kernel, &fixture.config).ok()?;
    if portable {
        machine.use_portable_loop();
    }
    write_initial_memory(&mut machine, fixture).ok()?;
    let stop = machine.run_to_end();
    if stop != stepped_stop {
        return Some(format!(
            "whole run stopped with {stop:?}, stepped run with {stepped_stop:?}"
        ));
    }
    if machine.device().bytes() != stepped.device().bytes() {
        return Some("whole run left different device memory".into());
    }
    let (ours, theirs) = (machine.stats(), stepped.stats());
    if ours != theirs {
        let totals = |s: &wave_engine::machine::Stats| {
            let mut s = s.clone();
            s.per_pc.clear();
            s
        };
        return Some(format!(
            "whole run has other statistics: {:?} vs {:?} (per-instruction records {})",
            totals(ours),
            totals(theirs),
            if ours.per_pc == theirs.per_pc {
                "equal"
            } else {
                "differ"
            }
        ));
    }
    let (a, b) = (machine.workgroup(), stepped.workgroup());
    if a.index() != b.index() || a.waves() != b.waves() || a.local().bytes() != b.local().bytes() {
        return Some("whole run ended with another workgroup state".into());
    }
    None
}

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

struct Report {
    ran: Vec<String>,
    failures: Vec<String>,
}

fn report() -> &'static Report {
    static REPORT: OnceLock<Report> = OnceLock::new();
    REPORT.get_or_init(|| {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(fixture_dir())
            .expect("tests/fixtures exists")
            .map(|e| e.expect("readable directory entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "wave"))
            .collect();
        paths.sort();
        let mut ran = Vec::new();
        let mut failures = Vec::new();
        for path in paths {
            let name = path
                .file_name()
                .expect("file name")
                .to_string_lossy()
                .into_owned();
            let source = std::fs::read_to_string(&path).expect("readable fixture");
            failures.extend(run_fixture(&name, &source));
            ran.push(name);
        }
        Report { ran, failures }
    })
}

#[test]
fn every_fixture_passes() {
    let report = report();
    assert!(
        report.failures.is_empty(),
        "{} failure(s) in {} fixtures:\n{}",
        report.failures.len(),
        report.ran.len(),
        report.failures.join("\n")
    );
}

#[test]
fn every_fixture_file_was_run() {
    let on_disk: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("tests/fixtures exists")
        .filter_map(|e| {
            let path = e.expect("entry").path();
            (path.extension().is_some_and(|e| e == "wave")).then(|| {
                path.file_name()
                    .expect("name")
                    .to_string_lossy()
                    .into_owned()
            })
        })
        .collect();
    assert!(on_disk.len() >= 50, "only {} fixtures", on_disk.len());
    let ran = &report().ran;
    for name in &on_disk {
        assert!(ran.contains(name), "{name} was not run");
    }
    assert_eq!(ran.len(), on_disk.len());
}

#[test]
fn harness_rejects_unknown_and_malformed_directives() {
    let base = ".kernel k\n halt\n.end\n";
    for bad in [
        ";! expect-frobnicate 1",
        ";! expect-u24 0: 1",
        ";! workgroup four",
        ";! expect-trap exploded",
        ";! expect-stats divergent",
        ";! expect-masks wave 0 1111",
        ";! expect-pred wave 0 p7: 1111",
        ";! memory-u8 0: 256",
        ";! expect-halted wave 0: 12",
    ] {
        let source = format!("{bad}\n{base}");
        assert!(parse_fixture(&source).is_err(), "accepted `{bad}`");
        assert!(!run_fixture("bad.wave", &source).is_empty());
    }
}

#[test]
fn harness_detects_wrong_expectations() {
    // A correct fixture passes; changing any expectation makes it fail.
    let good = ";! expect-u32 0: 7\n;! expect-trace wave 0: 4:1111:0 5:1111:0 6:1111:0\n\
                .kernel k\n mov_imm r1, 7\n device_store_u32 r0, r1\n halt\n.end\n";
    assert_eq!(run_fixture("good.wave", good), Vec::<String>::new());
    for (from, to) in [
        ("expect-u32 0: 7", "expect-u32 0: 8"),
        ("5:1111:0", "5:1110:0"),
        ("6:1111:0", "6:1111:1"),
        ("4:1111:0 ", ""),
    ] {
        let bad = good.replacen(from, to, 1);
        assert!(!run_fixture("bad.wave", &bad).is_empty(), "`{to}` passed");
    }
    let trap = ";! expect-trap ran-off-end line 3\n.kernel k\n nop\n.end\n";
    assert_eq!(run_fixture("trap.wave", trap), Vec::<String>::new());
    let finishes = format!(";! expect-trap ran-off-end\n{good}");
    assert!(!run_fixture("finishes.wave", &finishes).is_empty());
    let wrong_line = trap.replace("line 3", "line 2");
    assert!(!run_fixture("wrong-line.wave", &wrong_line).is_empty());
}
