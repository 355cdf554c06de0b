//! Where every operation sits in the encoding: its opcode, its modifier, and the shape of its
//! operands (which fields of the two words hold them, and so the instruction's size). The
//! encodings are written from the table of operations (`src/ops.rs`); this module holds the
//! shapes its rows name.

use crate::instr::Op;

/// A register-sized field of the instruction words. `rd` and `rs1` are in word 0; `rs2`, `rs3`
/// and `rs4` in word 1 (see [`super::word`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Rd,
    Rs1,
    Rs2,
    Rs3,
    Rs4,
}

/// One written operand: what it is and where it is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
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
pub(super) enum Shape {
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
    pub(super) fn slots(self) -> &'static [Slot] {
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
    pub(super) fn destination_is_optional(self) -> bool {
        matches!(
            self,
            Shape::LocalAtomic | Shape::LocalCas | Shape::DeviceAtomic | Shape::DeviceCas
        )
    }

    /// 4 bytes when every operand fits in word 0, else 8.
    pub(super) fn size(self) -> u32 {
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
pub(super) struct Encoding {
    pub op: Op,
    pub opcode: u8,
    pub modifier: u8,
    pub shape: Shape,
    /// Bytes `wave-asm`'s label table counts for it: 8 only for the mnemonics it flags as
    /// extended, 4 for every other (even when the instruction itself takes 8).
    pub label_bytes: u32,
}

/// Bytes `wave-asm`'s label table counts for an instruction: 8 when the row says `extended`.
macro_rules! label_bytes {
    () => {
        4
    };
    (extended) => {
        8
    };
}

/// Writes [`ENCODINGS`] from the `wbin` projection of the table of operations.
macro_rules! define_encodings {
    (() [$( $op:ident ($opcode:literal, $modifier:literal, $shape:ident $(, $extended:ident)?); )*]) => {
        /// Every operation `wave-asm` can encode. The engine's docs-dialect operations (`ucmp_gt`,
        /// `ucmp_ge`, `fcmp_ge`, predicate logic) have no entry: no `.wbin` can hold them.
        pub(crate) const ENCODINGS: &[Encoding] = &[$(
            Encoding {
                op: Op::$op,
                opcode: $opcode,
                modifier: $modifier,
                shape: Shape::$shape,
                label_bytes: label_bytes!($($extended)?),
            },
        )*];
    };
}
crate::ops::for_each_op!(wbin => define_encodings());

/// Writes [`mnemonic`] from the `names` projection of the table of operations.
macro_rules! define_mnemonic {
    (() [$( $op:ident $name:literal; )*]) => {
        /// The mnemonic that writes `op` (for messages and the disassembly).
        pub(crate) fn mnemonic(op: Op) -> &'static str {
            match op {
                $( Op::$op => $name, )*
            }
        }
    };
}
crate::ops::for_each_op!(names => define_mnemonic());

use Shape::*;

/// The encoding of `op`; `None` for the docs-dialect operations.
pub(super) fn encoding_of(op: Op) -> Option<&'static Encoding> {
    ENCODINGS.iter().find(|entry| entry.op == op)
}

/// What an opcode and modifier decode to. `desired_given` (rs3 is not r0) picks CAS over add,
/// which share their modifier.
pub(super) fn decoding_of(
    opcode: u8,
    modifier: u8,
    desired_given: bool,
) -> Option<&'static Encoding> {
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

/// Whether some operation uses this opcode at all (to tell "unknown opcode" from "unknown
/// modifier").
pub(super) fn opcode_is_known(opcode: u8) -> bool {
    ENCODINGS.iter().any(|entry| entry.opcode == opcode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::mnemonics::{self, MNEMONICS, PREDICATE_LOGIC};

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

    #[test]
    fn every_op_is_written_by_its_mnemonic_and_encoded_unless_dialect() {
        for &op in Op::ALL {
            let name = mnemonic(op);
            let entry = mnemonics::find(name).filter(|entry| entry.op == op);
            let logic = PREDICATE_LOGIC
                .iter()
                .any(|(n, o, _)| *n == name && *o == op);
            assert!(entry.is_some() != logic, "{op:?} `{name}`");
            let wave_asm = entry.is_some_and(|entry| !entry.dialect);
            assert_eq!(encoding_of(op).is_some(), wave_asm, "{op:?}");
        }
    }
}
