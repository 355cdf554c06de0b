//! The instruction words. Word 0, little-endian like everything in the file:
//!
//! ```text
//! 31      24 23      16 15       8 7      4   3      2        1  0
//! | opcode  |    rd    |   rs1    | modifier | 0 | pred_neg | pred_reg |
//! ```
//!
//! Word 1, present for 8-byte instructions, is either `rs2[31:24] rs3[23:16] rs4[15:8]`
//! with the scope in bits 1..0 (bits 7..2 zero), or a whole 32-bit value: `mov_imm`'s immediate
//! or `call`'s target. An unpredicated instruction has all three predicate bits clear, so `@p0`
//! (p0, not negated) cannot be told from no predicate.

use crate::instr::{Op, SpecialRegister};
use crate::syntax::ast::Scope;

use super::opcodes::{Encoding, Field, Slot};

/// One operand as written in source.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    Register(u8),
    Predicate(u8),
    Special(SpecialRegister),
    Scope(Scope),
    Immediate(u32),
    /// A call target as stored: the label's offset by `wave-asm`'s label-table count.
    Target(u32),
}

/// One instruction: the operation, its guard and its written operands.
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub op: Op,
    /// `(predicate, negated)`; `None` runs on every lane, which is also what `@p0` encodes to.
    pub predicate: Option<(u8, bool)>,
    pub operands: Vec<Operand>,
}

/// The encoded form: word 0, and word 1 for 8-byte instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Words {
    pub word0: u32,
    pub word1: Option<u32>,
}

impl Words {
    pub(super) fn write(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.word0.to_le_bytes());
        if let Some(word1) = self.word1 {
            out.extend_from_slice(&word1.to_le_bytes());
        }
    }
}

/// Every field of the two words, unpacked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Fields {
    pub opcode: u8,
    pub rd: u8,
    pub rs1: u8,
    pub modifier: u8,
    /// Bit 3 of word 0, always clear in what `wave-asm` writes.
    pub reserved: bool,
    pub predicate: u8,
    pub negated: bool,
    pub rs2: u8,
    pub rs3: u8,
    pub rs4: u8,
    pub scope: u8,
    pub word1: u32,
}

impl Fields {
    pub(super) fn unpack(word0: u32, word1: u32) -> Fields {
        let byte = |word: u32, shift: u32| (word >> shift) as u8;
        Fields {
            opcode: byte(word0, 24),
            rd: byte(word0, 16),
            rs1: byte(word0, 8),
            modifier: byte(word0, 4) & 0xF,
            reserved: word0 & 0b1000 != 0,
            predicate: byte(word0, 0) & 0b11,
            negated: word0 & 0b100 != 0,
            rs2: byte(word1, 24),
            rs3: byte(word1, 16),
            rs4: byte(word1, 8),
            scope: byte(word1, 0) & 0b11,
            word1,
        }
    }

    pub(super) fn register(&self, field: Field) -> u8 {
        match field {
            Field::Rd => self.rd,
            Field::Rs1 => self.rs1,
            Field::Rs2 => self.rs2,
            Field::Rs3 => self.rs3,
            Field::Rs4 => self.rs4,
        }
    }

    fn set_register(&mut self, field: Field, value: u8) {
        match field {
            Field::Rd => self.rd = value,
            Field::Rs1 => self.rs1 = value,
            Field::Rs2 => self.rs2 = value,
            Field::Rs3 => self.rs3 = value,
            Field::Rs4 => self.rs4 = value,
        }
    }
}

pub(super) fn scope_bits(scope: Scope) -> u8 {
    match scope {
        Scope::Wave => 0,
        Scope::Workgroup => 1,
        Scope::Device => 2,
        Scope::System => 3,
    }
}

pub(super) fn scope_from_bits(bits: u8) -> Scope {
    match bits & 0b11 {
        0 => Scope::Wave,
        1 => Scope::Workgroup,
        2 => Scope::Device,
        _ => Scope::System,
    }
}

/// The written operands paired with the slots they fill: an atomic written without `rd` skips
/// its first slot.
pub(super) fn slots_for<'a>(
    encoding: &Encoding,
    operands: &'a [Operand],
) -> impl Iterator<Item = (Slot, &'a Operand)> {
    let slots = encoding.shape.slots();
    let skip =
        usize::from(encoding.shape.destination_is_optional() && operands.len() + 1 == slots.len());
    slots[skip..].iter().copied().zip(operands)
}

/// Encodes an instruction whose operands follow its encoding's shape (what the assembler and
/// the decoder build). An operand of the wrong kind for its slot is left out.
pub(super) fn encode(encoding: &Encoding, instruction: &Instruction) -> Words {
    let mut fields = Fields {
        opcode: encoding.opcode,
        modifier: encoding.modifier,
        ..Fields::default()
    };
    if let Some((predicate, negated)) = instruction.predicate {
        fields.predicate = predicate & 0b11;
        fields.negated = negated;
    }
    let mut whole_word1 = None;
    for (slot, operand) in slots_for(encoding, &instruction.operands) {
        match (slot, *operand) {
            (Slot::Register(field), Operand::Register(n))
            | (Slot::Predicate(field), Operand::Predicate(n)) => fields.set_register(field, n),
            (Slot::Special, Operand::Special(sr)) => fields.rs1 = sr as u8,
            (Slot::Scope, Operand::Scope(scope)) => fields.scope = scope_bits(scope),
            (Slot::Immediate, Operand::Immediate(value))
            | (Slot::Target, Operand::Target(value)) => whole_word1 = Some(value),
            _ => {}
        }
    }
    let word0 = u32::from(fields.opcode) << 24
        | u32::from(fields.rd) << 16
        | u32::from(fields.rs1) << 8
        | u32::from(fields.modifier & 0xF) << 4
        | u32::from(fields.negated) << 2
        | u32::from(fields.predicate);
    let word1 = (encoding.shape.size() == 8).then(|| {
        whole_word1.unwrap_or(
            u32::from(fields.rs2) << 24
                | u32::from(fields.rs3) << 16
                | u32::from(fields.rs4) << 8
                | u32::from(fields.scope),
        )
    });
    Words { word0, word1 }
}
