//! Random programs that use every `wave-asm` mnemonic, for the assemble → disassemble →
//! assemble property. They are never run, so they only have to compile: registers within the
//! kernel's count, structured ops balanced, `break`/`continue` inside loops, calls to labels of
//! their own kernel. They also use the spellings the assembler must see through: cache hints,
//! `.lo`/`.hi`, `mov rd, sr_X`, bare scopes, float and negative immediates, `@p0`, atomics
//! without `rd` or with `rd` = r0, labels after the last instruction.

use std::fmt::Write;

use super::rng::Rng;
use wave_engine::instr::{Op, SpecialRegister};
use wave_engine::syntax::mnemonics::{Form, Kind, Mnemonic, MNEMONICS};

/// A source of one to three kernels.
pub fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    for index in 0..rng.range(1, 3) {
        Kernel::new(&mut rng, index).write(&mut out);
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Frame {
    If { has_else: bool },
    Loop,
}

struct Kernel<'r> {
    rng: &'r mut Rng,
    index: u32,
    registers: u32,
    frames: Vec<Frame>,
    labels_defined: Vec<String>,
    labels_called: Vec<String>,
    lines: Vec<String>,
}

/// Everything but the structured ops and `call`, which the generator places itself.
fn plain_mnemonics() -> Vec<&'static Mnemonic> {
    MNEMONICS
        .iter()
        .filter(|m| !m.dialect)
        .filter(|m| {
            !matches!(
                m.op,
                Op::If
                    | Op::Else
                    | Op::EndIf
                    | Op::Loop
                    | Op::EndLoop
                    | Op::Break
                    | Op::Continue
                    | Op::Call
            )
        })
        .collect()
}

impl<'r> Kernel<'r> {
    fn new(rng: &'r mut Rng, index: u32) -> Self {
        let registers = if rng.chance(40) {
            32
        } else {
            rng.range(8, 255)
        };
        Kernel {
            rng,
            index,
            registers,
            frames: Vec::new(),
            labels_defined: Vec::new(),
            labels_called: Vec::new(),
            lines: Vec::new(),
        }
    }

    fn write(mut self, out: &mut String) {
        let _ = writeln!(out, ".kernel k{}", self.index);
        if self.registers != 32 || self.rng.chance(20) {
            let _ = writeln!(out, "    .registers {}", self.registers);
        }
        if self.rng.chance(40) {
            let _ = writeln!(out, "    .local_memory {}", self.rng.below(70_000));
        }
        if self.rng.chance(40) {
            let x = if self.rng.chance(20) {
                0
            } else {
                self.rng.range(1, 64)
            };
            let (y, z) = (self.rng.range(1, 4), self.rng.range(1, 2));
            let _ = writeln!(out, "    .workgroup_size {x}, {y}, {z}");
        }
        let plain = plain_mnemonics();
        for _ in 0..self.rng.range(0, 60) {
            self.step(&plain);
        }
        while let Some(frame) = self.frames.pop() {
            self.close(frame);
        }
        let missing: Vec<String> = self
            .labels_called
            .iter()
            .filter(|l| !self.labels_defined.contains(l))
            .cloned()
            .collect();
        for label in missing {
            self.lines.push(format!("{label}:"));
            self.labels_defined.push(label);
        }
        self.lines.push("    halt".to_string());
        if self.rng.chance(10) {
            let label = self.new_label();
            self.lines.push(format!("{label}:"));
        }
        for line in &self.lines {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(out, ".end");
    }

    fn new_label(&mut self) -> String {
        let label = format!(
            "k{}_l{}",
            self.index,
            self.labels_defined.len() + self.labels_called.len()
        );
        self.labels_defined.push(label.clone());
        label
    }

    fn step(&mut self, plain: &[&'static Mnemonic]) {
        let in_loop = self.frames.contains(&Frame::Loop);
        match self.rng.below(100) {
            0..=4 if self.frames.len() < 6 => {
                let p = self.predicate();
                self.lines.push(format!("    if {p}"));
                self.frames.push(Frame::If { has_else: false });
            }
            5..=7 if self.frames.len() < 6 => {
                self.lines.push("    loop".to_string());
                self.frames.push(Frame::Loop);
            }
            8..=9 if matches!(self.frames.last(), Some(Frame::If { has_else: false })) => {
                self.lines.push("    else".to_string());
                if let Some(frame) = self.frames.last_mut() {
                    *frame = Frame::If { has_else: true };
                }
            }
            10..=14 if !self.frames.is_empty() => {
                if let Some(frame) = self.frames.pop() {
                    self.close(frame);
                }
            }
            15..=18 if in_loop => {
                let word = if self.rng.chance(50) {
                    "break"
                } else {
                    "continue"
                };
                let guard = self.guard();
                let p = self.predicate();
                self.lines.push(format!("    {guard}{word} {p}"));
            }
            19..=20 => {
                let label = self.new_label();
                self.lines.push(format!("{label}:"));
            }
            21..=23 => {
                let label = if !self.labels_defined.is_empty() && self.rng.chance(50) {
                    self.rng.pick(&self.labels_defined).clone()
                } else {
                    let label = format!("k{}_c{}", self.index, self.labels_called.len());
                    self.labels_called.push(label.clone());
                    label
                };
                let guard = self.guard();
                self.lines.push(format!("    {guard}call {label}"));
            }
            _ => {
                let mnemonic = *self.rng.pick(plain);
                let line = self.plain(mnemonic);
                self.lines.push(line);
            }
        }
    }

    fn close(&mut self, frame: Frame) {
        let word = match frame {
            Frame::If { .. } => "endif",
            Frame::Loop => "endloop",
        };
        self.lines.push(format!("    {word}"));
    }

    fn guard(&mut self) -> String {
        if self.rng.chance(75) {
            return String::new();
        }
        let bang = if self.rng.chance(50) { "!" } else { "" };
        format!("@{bang}p{} ", self.rng.below(4))
    }

    fn predicate(&mut self) -> String {
        format!("p{}", self.rng.below(4))
    }

    fn register(&mut self, width: u32) -> String {
        let n = self.rng.below(self.registers - width + 1);
        let half = match self.rng.below(20) {
            0 => ".lo",
            1 => ".hi",
            _ => "",
        };
        format!("r{n}{half}")
    }

    fn immediate(&mut self) -> String {
        match self.rng.below(7) {
            0 => format!("{}", self.rng.next_u32()),
            1 => format!("-{}", self.rng.below(1 << 31) + 1),
            2 => {
                let value = self.rng.next_u32();
                format!("0x{:04x}_{:04x}", value >> 16, value & 0xFFFF)
            }
            3 => self
                .rng
                .pick(&["1.5", "-2.0", "1e3", "0.1", "3.25e-2"])
                .to_string(),
            4 => "-2147483648".to_string(),
            5 => "4294967295".to_string(),
            _ => format!("{}", self.rng.below(100)),
        }
    }

    fn plain(&mut self, mnemonic: &'static Mnemonic) -> String {
        let mut slots: Vec<Kind> = mnemonic.slots.iter().map(|slot| slot.kind).collect();
        let atomic = mnemonic.form != Form::Plain;
        let mut prefix = Vec::new();
        if atomic {
            match self.rng.below(3) {
                0 => {
                    slots.remove(0);
                }
                1 => {
                    slots.remove(0);
                    prefix.push("r0".to_string());
                }
                _ => {}
            }
        }
        let mut operands = prefix;
        let moves_special = mnemonic.op == Op::Mov && self.rng.chance(20);
        for (index, kind) in slots.iter().enumerate() {
            let operand = match kind {
                Kind::R => self.register(1),
                Kind::R2 => self.register(2),
                Kind::R4 => self.register(4),
                Kind::Frag => format!("r{}", self.rng.below(255)),
                Kind::P => self.predicate(),
                Kind::Scope => self
                    .rng
                    .pick(&[
                        ".wave",
                        ".workgroup",
                        ".device",
                        ".system",
                        "device",
                        "wave",
                    ])
                    .to_string(),
                Kind::Imm => self.immediate(),
                Kind::Sr => self.special(),
                Kind::Label => unreachable!("call is placed by the generator"),
            };
            operands.push(if moves_special && index == 1 {
                self.special()
            } else {
                operand
            });
        }
        let mut name = mnemonic.name.to_string();
        match self.rng.below(30) {
            0 => name.push_str(".cached"),
            1 => name.push_str(".streaming"),
            2 => name = name.replace('_', "."),
            _ => {}
        }
        let guard = self.guard();
        format!("    {guard}{name} {}", operands.join(", "))
            .trim_end()
            .to_string()
    }

    fn special(&mut self) -> String {
        let index = self.rng.below(SpecialRegister::ALL.len() as u32) as usize;
        SpecialRegister::ALL[index].1.to_string()
    }
}
