//! Bytes to a structured binary. Decoding is strict: every bit must be one the assembler could
//! have written for that instruction (unused fields zero, registers r0-r254, predicates p0-p3,
//! known special registers), so whatever decodes can be written back as the same bytes. An
//! atomic add and a CAS whose desired register is r0 are the same bytes; they decode as the add
//! (the disassembler may read them as CAS, see `add_or_cas`).

use crate::instr::SpecialRegister;

use super::container::{self, u32_at, Header, KernelRecord};
use super::error::WbinError;
use super::opcodes::{decoding_of, mnemonic, opcode_is_known, Encoding, Slot};
use super::word::{encode, scope_from_bits, Fields, Instruction, Operand};

/// A decoded `.wbin`.
#[derive(Clone, Debug, PartialEq)]
pub struct Wbin {
    pub header: Header,
    pub kernels: Vec<WbinKernel>,
    /// The file's length in bytes.
    pub len: usize,
}

/// One kernel: its metadata and its instructions.
#[derive(Clone, Debug, PartialEq)]
pub struct WbinKernel {
    /// From the symbol table; `None` when the file has none.
    pub name: Option<String>,
    pub register_count: u32,
    /// 0 when the source gave none (the launch configuration decides).
    pub local_memory: u32,
    /// All zero when the source gave none.
    pub workgroup_size: [u32; 3],
    /// Where the kernel's code starts in the code section, and its length in bytes.
    pub code_offset: u32,
    pub code_size: u32,
    pub instructions: Vec<Instruction>,
    /// Per instruction: its byte offset from the start of the kernel (the machine's pc).
    pub offsets: Vec<u32>,
    /// File offsets of the kernel's metadata record and of its name.
    pub record_at: usize,
    pub name_offset: u32,
}

impl WbinKernel {
    /// File offset of instruction `index` (or of the kernel's end).
    pub fn file_offset(&self, header: &Header, index: usize) -> usize {
        let within = self.offsets.get(index).copied().unwrap_or(self.code_size);
        header.code.start() + self.code_offset as usize + within as usize
    }
}

pub fn decode(bytes: &[u8]) -> Result<Wbin, WbinError> {
    let container = container::read(bytes)?;
    let kernels = container
        .kernels
        .into_iter()
        .map(|record| kernel(bytes, &container.header, record))
        .collect::<Result<_, _>>()?;
    Ok(Wbin {
        header: container.header,
        kernels,
        len: bytes.len(),
    })
}

fn kernel(bytes: &[u8], header: &Header, record: KernelRecord) -> Result<WbinKernel, WbinError> {
    let start = header.code.start() + record.code_offset as usize;
    let end = start + record.code_size as usize;
    let mut instructions = Vec::new();
    let mut offsets = Vec::new();
    let mut at = start;
    while at < end {
        let (instruction, size) = instruction(bytes, at, end)?;
        instructions.push(instruction);
        offsets.push((at - start) as u32);
        at += size;
    }
    Ok(WbinKernel {
        name: record.name,
        register_count: record.register_count,
        local_memory: record.local_memory,
        workgroup_size: record.workgroup_size,
        code_offset: record.code_offset,
        code_size: record.code_size,
        instructions,
        offsets,
        record_at: record.at,
        name_offset: record.name_offset,
    })
}

/// Decodes the instruction at file offset `at`, which must end by `end` (its kernel's end).
fn instruction(bytes: &[u8], at: usize, end: usize) -> Result<(Instruction, usize), WbinError> {
    let word0 = u32_at(bytes, at)
        .filter(|_| at + 4 <= end)
        .ok_or_else(|| WbinError::new(at, "the kernel's code ends inside an instruction"))?;
    let opcode = (word0 >> 24) as u8;
    let modifier = ((word0 >> 4) & 0xF) as u8;
    let Some(family) = decoding_of(opcode, modifier, false) else {
        let message = if opcode_is_known(opcode) {
            format!("unknown modifier {modifier} for opcode {opcode:#04x}")
        } else {
            format!("unknown opcode {opcode:#04x}")
        };
        return Err(WbinError::new(at, message));
    };
    let size = family.shape.size() as usize;
    let word1 = if size == 8 {
        Some(
            u32_at(bytes, at + 4)
                .filter(|_| at + 8 <= end)
                .ok_or_else(|| {
                    WbinError::new(
                        at,
                        format!(
                            "`{}` takes 8 bytes, but its kernel's code ends after 4",
                            mnemonic(family.op)
                        ),
                    )
                })?,
        )
    } else {
        None
    };
    let fields = Fields::unpack(word0, word1.unwrap_or(0));
    let encoding = decoding_of(opcode, modifier, fields.rs3 != 0).unwrap_or(family);
    let operands = operands(encoding, &fields)
        .map_err(|message| WbinError::new(at, format!("`{}`: {message}", mnemonic(encoding.op))))?;
    let predicate =
        (fields.predicate != 0 || fields.negated).then_some((fields.predicate, fields.negated));
    let decoded = Instruction {
        op: encoding.op,
        predicate,
        operands,
    };
    // What is left are bits outside every field the instruction uses.
    let again = encode(encoding, &decoded);
    if again.word0 != word0 {
        return Err(WbinError::new(
            at,
            format!(
                "`{}` has bits {:#010x} set in its first word that it does not use",
                mnemonic(encoding.op),
                again.word0 ^ word0
            ),
        ));
    }
    if again.word1 != word1 {
        return Err(WbinError::new(
            at + 4,
            format!(
                "`{}` has bits {:#010x} set in its second word that it does not use",
                mnemonic(encoding.op),
                again.word1.unwrap_or(0) ^ word1.unwrap_or(0)
            ),
        ));
    }
    Ok((decoded, size))
}

fn operands(encoding: &Encoding, fields: &Fields) -> Result<Vec<Operand>, String> {
    let slots = encoding.shape.slots();
    // A zero `rd` is the form without a destination (wave-asm writes the two the same way).
    let skip = usize::from(encoding.shape.destination_is_optional() && fields.rd == 0);
    slots[skip..]
        .iter()
        .map(|slot| match *slot {
            Slot::Register(field) => match fields.register(field) {
                255 => Err("register r255 does not exist (registers stop at r254)".to_string()),
                n => Ok(Operand::Register(n)),
            },
            Slot::Predicate(field) => match fields.register(field) {
                p @ 0..=3 => Ok(Operand::Predicate(p)),
                p => Err(format!("a predicate field holds {p}, but only p0-p3 exist")),
            },
            Slot::Special => SpecialRegister::ALL
                .get(fields.rs1 as usize)
                .map(|(sr, _)| Operand::Special(*sr))
                .ok_or_else(|| {
                    format!(
                        "special register {} does not exist (there are {})",
                        fields.rs1,
                        SpecialRegister::ALL.len()
                    )
                }),
            Slot::Scope => Ok(Operand::Scope(scope_from_bits(fields.scope))),
            Slot::Immediate => Ok(Operand::Immediate(fields.word1)),
            Slot::Target => Ok(Operand::Target(fields.word1)),
        })
        .collect()
}
