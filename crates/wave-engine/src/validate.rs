//! The rules a [`Kernel`] must keep before the machine runs it, and the check that enforces them.
//!
//! The front end only produces kernels that keep them, but [`Kernel`]'s fields are public, so a
//! caller can build one by hand. [`Machine::new`](crate::machine::Machine::new) checks every
//! kernel once, and the machine keeps the checked instructions in a type nothing outside it can
//! build; its fast paths rely on that (see `machine/code.rs`).
//!
//! The rules, per instruction:
//! - every register operand (with the further words of a pair or a quad) lies inside the
//!   kernel's register file, every predicate operand is p0..p3, every special register exists;
//! - a field the instruction does not use (an operand it does not have, an operand given as an
//!   immediate, a scope, the target of an instruction without one) is zero;
//! - structured-control-flow targets name the matching instruction: an `if` its `else` (or
//!   `endif`) and its `endif`, an `else` its `endif`, a `loop` its `endloop`, an `endloop` the
//!   first instruction of its loop's body; a `call` names an instruction or the end of the code
//!   (running there is a trap, as in any kernel that runs off its end).
//!
//! Which field holds which operand comes from the mnemonic table, the same one the front end
//! fills the fields from, so the two cannot disagree.

use std::fmt;

use crate::instr::{flags, Instr, Op, SpecialRegister};
use crate::program::Kernel;
use crate::syntax::mnemonics::{Kind, Slot, MNEMONICS, PREDICATE_LOGIC};

/// The most registers a kernel may have (r0..r255).
pub(crate) const MAX_REGISTERS: u32 = 256;

/// An [`Instr`] field, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Dst,
    A,
    B,
    C,
    D,
    Imm,
    Target,
}

impl Field {
    fn name(self) -> &'static str {
        match self {
            Field::Dst => "dst",
            Field::A => "a",
            Field::B => "b",
            Field::C => "c",
            Field::D => "d",
            Field::Imm => "imm",
            Field::Target => "target",
        }
    }
}

/// Why a kernel cannot run: the first rule (see the module documentation) it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// `register_file_size` is above [`MAX_REGISTERS`].
    RegisterFileTooLarge { size: u32 },
    /// More instructions than a `u32` program counter can reach.
    TooManyInstructions { count: usize },
    /// A register operand (`words` consecutive registers from `register`) reaches past the
    /// register file.
    Register {
        pc: u32,
        field: Field,
        register: u8,
        words: u8,
        register_file: u32,
    },
    /// A predicate operand other than p0..p3.
    Predicate {
        pc: u32,
        field: Field,
        predicate: u8,
    },
    /// A special-register operand that names none.
    SpecialRegister { pc: u32, index: u8 },
    /// A field the instruction does not use holds something other than zero.
    UnusedField { pc: u32, field: Field, value: u32 },
    /// A control-flow target past the end of the code.
    TargetOutOfRange {
        pc: u32,
        field: Field,
        target: u32,
        code_len: u32,
    },
    /// A structured-control-flow target that does not name the matching instruction.
    Unmatched {
        pc: u32,
        field: Field,
        target: u32,
        expected: &'static str,
    },
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KernelError::RegisterFileTooLarge { size } => write!(
                f,
                "a register file of {size} registers is too large (at most {MAX_REGISTERS})"
            ),
            KernelError::TooManyInstructions { count } => {
                write!(f, "{count} instructions are more than a kernel can hold")
            }
            KernelError::Register {
                pc,
                field,
                register,
                words,
                register_file,
            } => {
                let last = u32::from(register) + u32::from(words) - 1;
                let used = if words == 1 {
                    format!("r{register}")
                } else {
                    format!("r{register}-r{last}")
                };
                write!(
                    f,
                    "instruction {pc}: operand {} uses {used}, beyond the {register_file} registers of the kernel",
                    field.name()
                )
            }
            KernelError::Predicate {
                pc,
                field,
                predicate,
            } => write!(
                f,
                "instruction {pc}: operand {} names predicate p{predicate}; there are p0-p3",
                field.name()
            ),
            KernelError::SpecialRegister { pc, index } => write!(
                f,
                "instruction {pc}: special register {index} does not exist (there are {})",
                SpecialRegister::ALL.len()
            ),
            KernelError::UnusedField { pc, field, value } => write!(
                f,
                "instruction {pc}: field {} is not used by the instruction but holds {value}",
                field.name()
            ),
            KernelError::TargetOutOfRange {
                pc,
                field,
                target,
                code_len,
            } => write!(
                f,
                "instruction {pc}: {} {target} is past the end of the code ({code_len} instructions)",
                field.name()
            ),
            KernelError::Unmatched {
                pc,
                field,
                target,
                expected,
            } => write!(
                f,
                "instruction {pc}: {} {target} is not {expected}",
                field.name()
            ),
        }
    }
}

impl std::error::Error for KernelError {}

/// The operand slots of `op`, in the order the front end fills the fields from them.
fn slots_of(op: Op) -> &'static [Slot] {
    if let Some(entry) = MNEMONICS.iter().find(|entry| entry.op == op) {
        return entry.slots;
    }
    PREDICATE_LOGIC
        .iter()
        .find(|(_, logic, _)| *logic == op)
        .map_or(&[], |(_, _, slots)| *slots)
}

impl Kernel {
    /// Checks the rules the machine relies on (see [`crate::validate`]). Every kernel the front
    /// end produces keeps them; a kernel built by hand may not.
    pub fn validate(&self) -> Result<(), KernelError> {
        if self.register_file_size > MAX_REGISTERS {
            return Err(KernelError::RegisterFileTooLarge {
                size: self.register_file_size,
            });
        }
        let Ok(code_len) = u32::try_from(self.code.len()) else {
            return Err(KernelError::TooManyInstructions {
                count: self.code.len(),
            });
        };
        // The machine gives every kernel at least one register.
        let register_file = self.register_file_size.max(1);
        for (pc, instr) in (0..code_len).zip(&self.code) {
            check_operands(pc, instr, register_file)?;
            check_target_range(pc, instr, code_len)?;
        }
        for (pc, instr) in (0..code_len).zip(&self.code) {
            check_matching(pc, instr, &self.code)?;
        }
        Ok(())
    }
}

fn check_operands(pc: u32, instr: &Instr, register_file: u32) -> Result<(), KernelError> {
    let immediate_flag = |field: Field| match field {
        Field::A => flags::A_IMM,
        Field::B => flags::B_IMM,
        Field::C => flags::C_IMM,
        _ => 0,
    };
    let value_of = |field: Field| match field {
        Field::Dst => instr.dst,
        Field::A => instr.a,
        Field::B => instr.b,
        Field::C => instr.c,
        _ => instr.d,
    };
    let mut checked = [false; 5];
    let mut next_source = 0;
    for (index, slot) in slots_of(instr.op).iter().enumerate() {
        let field = if index == 0 && slot.is_destination() {
            Field::Dst
        } else {
            next_source += 1;
            [Field::A, Field::B, Field::C, Field::D][(next_source - 1).min(3)]
        };
        let value = value_of(field);
        let is_immediate = instr.flags & immediate_flag(field) != 0;
        match slot.kind {
            Kind::R | Kind::R2 | Kind::R4 if !is_immediate => {
                let words = slot.kind.register_width();
                if u32::from(value) + u32::from(words) > register_file {
                    return Err(KernelError::Register {
                        pc,
                        field,
                        register: value,
                        words,
                        register_file,
                    });
                }
            }
            Kind::P if value >= 4 => {
                return Err(KernelError::Predicate {
                    pc,
                    field,
                    predicate: value,
                })
            }
            Kind::Sr if usize::from(value) >= SpecialRegister::ALL.len() => {
                return Err(KernelError::SpecialRegister { pc, index: value })
            }
            // Fragment ids name fragments, not registers: any id is fine.
            Kind::R | Kind::R2 | Kind::R4 | Kind::P | Kind::Sr | Kind::Frag => {}
            // Scopes, labels and `mov_imm`'s immediate take a field's place but leave it empty.
            Kind::Scope | Kind::Label | Kind::Imm => continue,
        }
        if !is_immediate {
            checked[field as usize] = true;
        }
    }
    for field in [Field::Dst, Field::A, Field::B, Field::C, Field::D] {
        let value = value_of(field);
        if !checked[field as usize] && value != 0 {
            return Err(KernelError::UnusedField {
                pc,
                field,
                value: u32::from(value),
            });
        }
    }
    Ok(())
}

/// Every target field lies in the code (a `call` may also name its end), and an instruction
/// without targets has zero there. Checked for every instruction before any is matched, so a
/// target out of range is reported at its own instruction.
fn check_target_range(pc: u32, instr: &Instr, code_len: u32) -> Result<(), KernelError> {
    let immediate_used = instr.op == Op::MovImm
        || instr.op == Op::If
        || instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) != 0;
    if !immediate_used && instr.imm != 0 {
        return Err(KernelError::UnusedField {
            pc,
            field: Field::Imm,
            value: instr.imm,
        });
    }
    let code_end = u64::from(code_len);
    let (targets, end): (&[(Field, u32)], u64) = match instr.op {
        Op::If => (
            &[(Field::Target, instr.target), (Field::Imm, instr.imm)],
            code_end,
        ),
        Op::Else | Op::Loop => (&[(Field::Target, instr.target)], code_end),
        // An empty loop body starts at its `endloop`; a label may end the kernel (the front end
        // warns), and a `call` to it runs off the end, which traps like any such kernel.
        Op::EndLoop | Op::Call => (&[(Field::Target, instr.target)], code_end + 1),
        _ if instr.target != 0 => {
            return Err(KernelError::UnusedField {
                pc,
                field: Field::Target,
                value: instr.target,
            })
        }
        _ => (&[], 0),
    };
    for &(field, target) in targets {
        if u64::from(target) >= end {
            return Err(KernelError::TargetOutOfRange {
                pc,
                field,
                target,
                code_len,
            });
        }
    }
    Ok(())
}

/// Each structured-control-flow target names the matching instruction (every target is in range:
/// [`check_target_range`] passed for the whole code).
fn check_matching(pc: u32, instr: &Instr, code: &[Instr]) -> Result<(), KernelError> {
    let unmatched = |field: Field, target: u32, expected: &'static str| {
        Err(KernelError::Unmatched {
            pc,
            field,
            target,
            expected,
        })
    };
    let op_at = |target: u32| code.get(target as usize).map(|found| found.op);
    match instr.op {
        Op::If => {
            if op_at(instr.target) != Some(Op::EndIf) || instr.target <= pc {
                return unmatched(Field::Target, instr.target, "a later `endif`");
            }
            // The else-target is this `if`'s `else` (which ends at the same `endif`), or its
            // `endif` when there is no `else`.
            let otherwise = &code[instr.imm as usize];
            let same_end = match otherwise.op {
                Op::Else => otherwise.target == instr.target,
                Op::EndIf => instr.imm == instr.target,
                _ => false,
            };
            if !(pc < instr.imm && same_end) {
                return unmatched(Field::Imm, instr.imm, "the `else` or `endif` of this `if`");
            }
        }
        Op::Else if op_at(instr.target) != Some(Op::EndIf) || instr.target <= pc => {
            return unmatched(Field::Target, instr.target, "a later `endif`");
        }
        Op::Loop => {
            let end = &code[instr.target as usize];
            if end.op != Op::EndLoop || instr.target <= pc || end.target != pc + 1 {
                return unmatched(Field::Target, instr.target, "the `endloop` of this `loop`");
            }
        }
        Op::EndLoop => {
            // The body starts right after its `loop`, which names this `endloop`.
            let opening = instr
                .target
                .checked_sub(1)
                .filter(|&loop_pc| loop_pc < pc)
                .map(|loop_pc| &code[loop_pc as usize]);
            if !opening.is_some_and(|opening| opening.op == Op::Loop && opening.target == pc) {
                return unmatched(
                    Field::Target,
                    instr.target,
                    "the first instruction of this `endloop`'s loop body",
                );
            }
        }
        _ => {}
    }
    Ok(())
}
