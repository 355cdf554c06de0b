//! Where every operation sits in the encoding: its opcode, its modifier, and the shape of its
//! operands (which fields of the two words hold them, and so the instruction's size).

use crate::instr::Op;
use crate::syntax::mnemonics::{MNEMONICS, PREDICATE_LOGIC};

/// A register-sized field of the instruction words. `rd` and `rs1` are in word 0; `rs2`, `rs3`
/// and `rs4` in word 1 (see [`super::word`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Rd,
    Rs1,
    Rs2,
    Rs3,
    Rs4,
}

/// One written operand: what it is and where it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A general register (or an MMA fragment id, which is written like one).
    Register(Field),
    /// A predicate register.
    Predicate(Field),
    /// A special register's index, in `rs1`.
    Special,
    /// A memory scope, in the low two bits of word 1.
    Scope,
    /// A 32-bit immediate: the whole of word 1.
    Immediate,
    /// A call target: the whole of word 1.
    Target,
}

/// The operand layouts, named after the instructions that use them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `else`, `halt`, …
    Bare,
    /// `rd, rs1`
    Unary,
    /// `rd, rs1, rs2` (also the MMA ops, whose three operands fill these fields in the order
    /// they are written)
    Binary,
    /// `rd, rs1, rs2, rs3`
    Ternary,
    /// `bfi rd, rs1, rs2, rs3, rs4`
    Quaternary,
    /// `pd, rs1, rs2`: the predicate goes in the `rd` field.
    Compare,
    /// `select rd, p, rs1, rs2`: the predicate in `rs1`, the sources in `rs2` and `rs3`.
    Select,
    /// `addr, value` in `rs1`, `rs2`.
    Store,
    /// `[rd,] addr, value`
    LocalAtomic,
    /// `[rd,] addr, expected, desired`
    LocalCas,
    /// `[rd,] addr, value, scope`
    DeviceAtomic,
    /// `[rd,] addr, expected, desired, scope`
    DeviceCas,
    /// `wave_ballot rd, p`: the predicate in `rs1`.
    Ballot,
    /// `wave_any/all pd, ps`: predicates in `rd` and `rs1`.
    Vote,
    /// `if/break/continue p`: the predicate in `rs1`.
    Predicate,
    /// `call label`
    Call,
    /// `fence_* scope`
    Fence,
    /// `mov_imm rd, imm32`
    MovImm,
    /// `mov_sr rd, sr_X`: the special register's index in `rs1`.
    MovSr,
}

impl Shape {
    /// The written operands, in order. For the atomics the first (`rd`) may be left out.
    pub fn slots(self) -> &'static [Slot] {
        use Field::*;
        use Slot::*;
        match self {
            Shape::Bare => &[],
            Shape::Unary => &[Register(Rd), Register(Rs1)],
            Shape::Binary => &[Register(Rd), Register(Rs1), Register(Rs2)],
            Shape::Ternary => &[Register(Rd), Register(Rs1), Register(Rs2), Register(Rs3)],
            Shape::Quaternary => &[
                Register(Rd),
                Register(Rs1),
                Register(Rs2),
                Register(Rs3),
                Register(Rs4),
            ],
            Shape::Compare => &[Predicate(Rd), Register(Rs1), Register(Rs2)],
            Shape::Select => &[Register(Rd), Predicate(Rs1), Register(Rs2), Register(Rs3)],
            Shape::Store => &[Register(Rs1), Register(Rs2)],
            Shape::LocalAtomic => &[Register(Rd), Register(Rs1), Register(Rs2)],
            Shape::LocalCas => &[Register(Rd), Register(Rs1), Register(Rs2), Register(Rs3)],
            Shape::DeviceAtomic => &[Register(Rd), Register(Rs1), Register(Rs2), Scope],
            Shape::DeviceCas => &[
                Register(Rd),
                Register(Rs1),
                Register(Rs2),
                Register(Rs3),
                Scope,
            ],
            Shape::Ballot => &[Register(Rd), Predicate(Rs1)],
            Shape::Vote => &[Predicate(Rd), Predicate(Rs1)],
            Shape::Predicate => &[Predicate(Rs1)],
            Shape::Call => &[Target],
            Shape::Fence => &[Scope],
            Shape::MovImm => &[Register(Rd), Immediate],
            Shape::MovSr => &[Register(Rd), Special],
        }
    }

    /// Atomics write the old value to `rd` only when one is given; a missing `rd` encodes as 0.
    pub fn destination_is_optional(self) -> bool {
        matches!(
            self,
            Shape::LocalAtomic | Shape::LocalCas | Shape::DeviceAtomic | Shape::DeviceCas
        )
    }

    /// 4 bytes when every operand fits in word 0, else 8.
    pub fn size(self) -> u32 {
        match self {
            Shape::Bare
            | Shape::Unary
            | Shape::Ballot
            | Shape::Vote
            | Shape::Predicate
            | Shape::MovSr => 4,
            _ => 8,
        }
    }
}

/// One operation's encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding {
    pub op: Op,
    pub opcode: u8,
    pub modifier: u8,
    pub shape: Shape,
    /// Bytes `wave-asm`'s label table counts for it: 8 only for the mnemonics it flags as
    /// extended, 4 for every other (even when the instruction itself takes 8).
    pub label_bytes: u32,
}

const fn e(op: Op, opcode: u8, modifier: u8, shape: Shape) -> Encoding {
    Encoding {
        op,
        opcode,
        modifier,
        shape,
        label_bytes: 4,
    }
}

/// An operation `wave-asm` flags as extended: its label table counts it as 8 bytes.
const fn x(op: Op, opcode: u8, modifier: u8, shape: Shape) -> Encoding {
    Encoding {
        op,
        opcode,
        modifier,
        shape,
        label_bytes: 8,
    }
}

use Shape::*;

/// Every operation `wave-asm` can encode. The engine's docs-dialect operations (`ucmp_gt`,
/// `ucmp_ge`, `fcmp_ge`, predicate logic) have no entry: no `.wbin` can hold them.
#[rustfmt::skip]
pub const ENCODINGS: &[Encoding] = &[
    e(Op::IAdd, 0x00, 0, Binary),
    e(Op::ISub, 0x01, 0, Binary),
    e(Op::IMul, 0x02, 0, Binary),
    e(Op::IMulHi, 0x03, 0, Binary),
    x(Op::IMad, 0x04, 0, Ternary),
    e(Op::IDiv, 0x05, 0, Binary),
    e(Op::IMod, 0x06, 0, Binary),
    e(Op::INeg, 0x07, 0, Unary),
    e(Op::IAbs, 0x08, 0, Unary),
    e(Op::IMin, 0x09, 0, Binary),
    e(Op::IMax, 0x0A, 0, Binary),
    x(Op::IClamp, 0x0B, 0, Ternary),
    e(Op::FAdd, 0x10, 0, Binary),
    e(Op::FSub, 0x11, 0, Binary),
    e(Op::FMul, 0x12, 0, Binary),
    x(Op::Fma, 0x13, 0, Ternary),
    e(Op::FDiv, 0x14, 0, Binary),
    e(Op::FNeg, 0x15, 0, Unary),
    e(Op::FAbs, 0x16, 0, Unary),
    e(Op::FMin, 0x17, 0, Binary),
    e(Op::FMax, 0x18, 0, Binary),
    x(Op::FClamp, 0x19, 0, Ternary),
    e(Op::FSqrt, 0x1A, 0, Unary),
    e(Op::FRsqrt, 0x1B, 0, Unary),
    e(Op::FRcp, 0x1B, 1, Unary),
    e(Op::FFloor, 0x1B, 2, Unary),
    e(Op::FCeil, 0x1B, 3, Unary),
    e(Op::FRound, 0x1B, 4, Unary),
    e(Op::FTrunc, 0x1B, 5, Unary),
    e(Op::FFract, 0x1B, 6, Unary),
    e(Op::FSat, 0x1B, 7, Unary),
    e(Op::FSin, 0x1B, 8, Unary),
    e(Op::FCos, 0x1B, 9, Unary),
    e(Op::FExp2, 0x1B, 10, Unary),
    e(Op::FLog2, 0x1B, 11, Unary),
    e(Op::HAdd, 0x1C, 0, Binary),
    e(Op::HSub, 0x1C, 1, Binary),
    e(Op::HMul, 0x1C, 2, Binary),
    x(Op::Hma, 0x1C, 3, Ternary),
    e(Op::HAdd2, 0x1D, 0, Binary),
    e(Op::HMul2, 0x1D, 1, Binary),
    x(Op::Hma2, 0x1D, 2, Ternary),
    e(Op::DAdd, 0x1E, 0, Binary),
    e(Op::DSub, 0x1E, 1, Binary),
    e(Op::DMul, 0x1E, 2, Binary),
    x(Op::Dma, 0x1E, 3, Ternary),
    e(Op::DDiv, 0x1F, 0, Binary),
    e(Op::DSqrt, 0x1F, 1, Unary),
    e(Op::And, 0x20, 0, Binary),
    e(Op::Or, 0x21, 0, Binary),
    e(Op::Xor, 0x22, 0, Binary),
    e(Op::Not, 0x23, 0, Unary),
    e(Op::Shl, 0x24, 0, Binary),
    e(Op::Shr, 0x25, 0, Binary),
    e(Op::Sar, 0x26, 0, Binary),
    e(Op::BitCount, 0x27, 0, Unary),
    e(Op::BitFind, 0x27, 1, Unary),
    e(Op::BitRev, 0x27, 2, Unary),
    x(Op::Bfe, 0x27, 3, Ternary),
    x(Op::Bfi, 0x27, 4, Quaternary),
    e(Op::IcmpEq, 0x28, 0, Compare),
    e(Op::IcmpNe, 0x28, 1, Compare),
    e(Op::IcmpLt, 0x28, 2, Compare),
    e(Op::IcmpLe, 0x28, 3, Compare),
    e(Op::IcmpGt, 0x28, 4, Compare),
    e(Op::IcmpGe, 0x28, 5, Compare),
    e(Op::UcmpLt, 0x29, 2, Compare),
    e(Op::UcmpLe, 0x29, 3, Compare),
    e(Op::FcmpEq, 0x2A, 0, Compare),
    e(Op::FcmpNe, 0x2A, 1, Compare),
    e(Op::FcmpLt, 0x2A, 2, Compare),
    e(Op::FcmpLe, 0x2A, 3, Compare),
    e(Op::FcmpGt, 0x2A, 4, Compare),
    e(Op::FcmpOrd, 0x2A, 6, Compare),
    e(Op::FcmpUnord, 0x2A, 7, Compare),
    e(Op::Select, 0x2B, 0, Select),
    e(Op::CvtF32I32, 0x2C, 0, Unary),
    e(Op::CvtF32U32, 0x2C, 1, Unary),
    e(Op::CvtI32F32, 0x2C, 2, Unary),
    e(Op::CvtU32F32, 0x2C, 3, Unary),
    e(Op::CvtF32F16, 0x2C, 4, Unary),
    e(Op::CvtF16F32, 0x2C, 5, Unary),
    e(Op::CvtF32F64, 0x2C, 6, Unary),
    e(Op::CvtF64F32, 0x2C, 7, Unary),
    e(Op::CvtF32Bf16, 0x2C, 8, Unary),
    e(Op::CvtBf16F32, 0x2C, 9, Unary),
    e(Op::BAdd, 0x2D, 0, Binary),
    e(Op::BSub, 0x2D, 1, Binary),
    e(Op::BMul, 0x2D, 2, Binary),
    x(Op::Bma, 0x2D, 3, Ternary),
    e(Op::BAdd2, 0x2E, 0, Binary),
    e(Op::BMul2, 0x2E, 1, Binary),
    x(Op::Bma2, 0x2E, 2, Ternary),
    e(Op::LocalLoadU8, 0x30, 0, Unary),
    e(Op::LocalLoadU16, 0x30, 1, Unary),
    e(Op::LocalLoadU32, 0x30, 2, Unary),
    e(Op::LocalLoadU64, 0x30, 3, Unary),
    e(Op::LocalStoreU8, 0x31, 0, Store),
    e(Op::LocalStoreU16, 0x31, 1, Store),
    e(Op::LocalStoreU32, 0x31, 2, Store),
    e(Op::LocalStoreU64, 0x31, 3, Store),
    e(Op::DeviceLoadU8, 0x38, 0, Unary),
    e(Op::DeviceLoadU16, 0x38, 1, Unary),
    e(Op::DeviceLoadU32, 0x38, 2, Unary),
    e(Op::DeviceLoadU64, 0x38, 3, Unary),
    e(Op::DeviceLoadU128, 0x38, 4, Unary),
    e(Op::DeviceStoreU8, 0x39, 0, Store),
    e(Op::DeviceStoreU16, 0x39, 1, Store),
    e(Op::DeviceStoreU32, 0x39, 2, Store),
    e(Op::DeviceStoreU64, 0x39, 3, Store),
    e(Op::DeviceStoreU128, 0x39, 4, Store),
    e(Op::LocalAtomicAdd, 0x3C, 0, LocalAtomic),
    e(Op::LocalAtomicSub, 0x3C, 1, LocalAtomic),
    e(Op::LocalAtomicMin, 0x3C, 2, LocalAtomic),
    e(Op::LocalAtomicMax, 0x3C, 3, LocalAtomic),
    e(Op::LocalAtomicAnd, 0x3C, 4, LocalAtomic),
    e(Op::LocalAtomicOr, 0x3C, 5, LocalAtomic),
    e(Op::LocalAtomicXor, 0x3C, 6, LocalAtomic),
    e(Op::LocalAtomicExchange, 0x3C, 7, LocalAtomic),
    // `wave-asm` gives CAS no modifier, so it shares add's; rs3 (the desired value) is what
    // tells the two apart.
    x(Op::LocalAtomicCas, 0x3C, 0, LocalCas),
    e(Op::AtomicAdd, 0x3D, 0, DeviceAtomic),
    e(Op::AtomicSub, 0x3D, 1, DeviceAtomic),
    e(Op::AtomicMin, 0x3D, 2, DeviceAtomic),
    e(Op::AtomicMax, 0x3D, 3, DeviceAtomic),
    e(Op::AtomicAnd, 0x3D, 4, DeviceAtomic),
    e(Op::AtomicOr, 0x3D, 5, DeviceAtomic),
    e(Op::AtomicXor, 0x3D, 6, DeviceAtomic),
    e(Op::AtomicExchange, 0x3D, 7, DeviceAtomic),
    x(Op::AtomicCas, 0x3D, 0, DeviceCas),
    e(Op::WaveShuffle, 0x3E, 0, Binary),
    e(Op::WaveShuffleUp, 0x3E, 1, Binary),
    e(Op::WaveShuffleDown, 0x3E, 2, Binary),
    e(Op::WaveShuffleXor, 0x3E, 3, Binary),
    e(Op::WaveBroadcast, 0x3E, 4, Binary),
    e(Op::WaveBallot, 0x3E, 5, Ballot),
    e(Op::WaveAny, 0x3E, 6, Vote),
    e(Op::WaveAll, 0x3E, 7, Vote),
    e(Op::WavePrefixSum, 0x3E, 8, Unary),
    e(Op::WaveReduceAdd, 0x3E, 9, Unary),
    e(Op::WaveReduceMin, 0x3E, 10, Unary),
    e(Op::WaveReduceMax, 0x3E, 11, Unary),
    e(Op::If, 0x3F, 0, Predicate),
    e(Op::Else, 0x3F, 1, Bare),
    e(Op::EndIf, 0x3F, 2, Bare),
    e(Op::Loop, 0x3F, 3, Bare),
    e(Op::Break, 0x3F, 4, Predicate),
    e(Op::Continue, 0x3F, 5, Predicate),
    e(Op::EndLoop, 0x3F, 6, Bare),
    x(Op::Call, 0x3F, 7, Call),
    e(Op::Return, 0x3F, 8, Bare),
    e(Op::Halt, 0x3F, 9, Bare),
    e(Op::Barrier, 0x3F, 10, Bare),
    e(Op::FenceAcquire, 0x3F, 11, Fence),
    e(Op::FenceRelease, 0x3F, 12, Fence),
    e(Op::FenceAcqRel, 0x3F, 13, Fence),
    e(Op::Wait, 0x3F, 14, Bare),
    e(Op::Nop, 0x3F, 15, Bare),
    e(Op::MmaLoadA, 0x40, 0, Binary),
    e(Op::MmaLoadB, 0x40, 1, Binary),
    e(Op::MmaStoreC, 0x40, 2, Binary),
    e(Op::MmaCompute, 0x40, 3, Binary),
    e(Op::Mov, 0x41, 0, Unary),
    x(Op::MovImm, 0x41, 1, MovImm),
    e(Op::MovSr, 0x41, 2, MovSr),
];

/// The encoding of `op`; `None` for the docs-dialect operations.
pub fn encoding_of(op: Op) -> Option<&'static Encoding> {
    ENCODINGS.iter().find(|entry| entry.op == op)
}

/// What an opcode and modifier decode to. `desired_given` (rs3 is not r0) picks CAS over add,
/// which share their modifier.
pub fn decoding_of(opcode: u8, modifier: u8, desired_given: bool) -> Option<&'static Encoding> {
    let mut found = ENCODINGS
        .iter()
        .filter(|entry| entry.opcode == opcode && entry.modifier == modifier);
    let first = found.next()?;
    match found.next() {
        Some(second) => {
            let cas = |entry: &Encoding| matches!(entry.shape, LocalCas | DeviceCas);
            Some(if cas(second) == desired_given {
                second
            } else {
                first
            })
        }
        None => Some(first),
    }
}

/// The mnemonic that writes `op` (for messages and the disassembly).
pub fn mnemonic(op: Op) -> &'static str {
    MNEMONICS
        .iter()
        .filter(|entry| entry.op == op)
        .min_by_key(|entry| entry.dialect)
        .map(|entry| entry.name)
        .or_else(|| {
            PREDICATE_LOGIC
                .iter()
                .find(|(_, logic, _)| *logic == op)
                .map(|(name, _, _)| *name)
        })
        .unwrap_or("?")
}

/// Whether some operation uses this opcode at all (to tell "unknown opcode" from "unknown
/// modifier").
pub fn opcode_is_known(opcode: u8) -> bool {
    ENCODINGS.iter().any(|entry| entry.opcode == opcode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wave_asm_mnemonic_has_exactly_one_encoding() {
        for mnemonic in MNEMONICS.iter().filter(|m| !m.dialect) {
            let count = ENCODINGS.iter().filter(|e| e.op == mnemonic.op).count();
            assert_eq!(count, 1, "{}", mnemonic.name);
        }
        let dialect: Vec<_> = MNEMONICS
            .iter()
            .filter(|m| m.dialect)
            .map(|m| m.op)
            .collect();
        for entry in ENCODINGS {
            assert!(!dialect.contains(&entry.op), "{:?}", entry.op);
        }
    }

    #[test]
    fn opcode_and_modifier_name_one_operation_except_cas() {
        for (i, a) in ENCODINGS.iter().enumerate() {
            for b in &ENCODINGS[i + 1..] {
                if (a.opcode, a.modifier) == (b.opcode, b.modifier) {
                    assert!(matches!(b.shape, LocalCas | DeviceCas), "{a:?} / {b:?}");
                }
            }
            assert!(a.modifier < 16, "{a:?}");
            assert_eq!(
                decoding_of(
                    a.opcode,
                    a.modifier,
                    matches!(a.shape, LocalCas | DeviceCas)
                ),
                Some(a)
            );
        }
    }
}
