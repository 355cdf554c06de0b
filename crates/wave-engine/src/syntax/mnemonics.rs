//! The mnemonic table: every `wave-asm` mnemonic (164) plus the three underscore forms only the
//! WAVE docs use, each with its [`Op`] and operand shape. The entries are written from the table of
//! operations (`src/ops.rs`); this module holds the operand shapes its rows name.
//!
//! Operands fill [`Instr`](crate::instr::Instr) fields in order. When the first operand is a
//! destination (named `rd`, `pd` or `frag`) it goes to `dst`; every other operand fills `a`, `b`,
//! `c`, `d` in turn. So stores put the address in `a` and the value in `b`, `if p` puts `p` in
//! `a`, and `mma_store_c addr, stride, frag` fills `a`, `b`, `c`.

use crate::instr::Op;

/// What one operand must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A general register.
    R,
    /// A register pair: rN and rN+1 (f64, u64 memory).
    R2,
    /// Four consecutive registers (u128 memory).
    R4,
    /// An MMA fragment id, written like a register; it names a fragment, not a register.
    Frag,
    /// A predicate register.
    P,
    /// A memory scope (`.wave`, `.workgroup`, `.device`, `.system`).
    Scope,
    /// A label name.
    Label,
    /// An immediate (`mov_imm`).
    Imm,
    /// A special register (`sr_*`).
    Sr,
}

impl Kind {
    /// How many consecutive registers the operand uses (0 for non-registers).
    pub fn register_width(self) -> u8 {
        match self {
            Kind::R => 1,
            Kind::R2 => 2,
            Kind::R4 => 4,
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub kind: Kind,
    pub name: &'static str,
}

impl Slot {
    pub fn is_destination(self) -> bool {
        matches!(self.name, "rd" | "pd" | "frag")
    }
}

/// Atomics have a returning and a non-returning form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Plain,
    /// `[rd,] addr, val…`: the slots list the returning form.
    LocalAtomic,
    /// `[rd,] addr, val…, scope`: the slots list the returning form; the scope is mandatory.
    DeviceAtomic,
}

/// Which immediates the docs dialect allows in place of a source register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Immediates {
    None,
    /// Integer literals only.
    Int,
    /// F32 ops: float literals become f32 bits; integer literals are raw bits.
    Float,
    /// F16/BF16 ops: integer literals (bit patterns) only.
    Bits,
    /// `select`: integers as they are, floats as f32 bits.
    Any,
}

#[derive(Clone, Copy, Debug)]
pub struct Mnemonic {
    pub name: &'static str,
    pub op: Op,
    pub slots: &'static [Slot],
    pub form: Form,
    pub immediates: Immediates,
    /// Only the WAVE docs use it; `wave-asm` rejects it.
    pub dialect: bool,
}

impl Mnemonic {
    /// "rd, rs1, rs2" — for messages.
    pub fn signature(&self) -> String {
        self.slots
            .iter()
            .map(|slot| slot.name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

const fn s(kind: Kind, name: &'static str) -> Slot {
    Slot { kind, name }
}

use Kind::*;

const NONE: &[Slot] = &[];
const BINARY: &[Slot] = &[s(R, "rd"), s(R, "rs1"), s(R, "rs2")];
const UNARY: &[Slot] = &[s(R, "rd"), s(R, "rs1")];
const TERNARY: &[Slot] = &[s(R, "rd"), s(R, "rs1"), s(R, "rs2"), s(R, "rs3")];
const CLAMP: &[Slot] = &[s(R, "rd"), s(R, "value"), s(R, "lo"), s(R, "hi")];
const PAIR_BINARY: &[Slot] = &[s(R2, "rd"), s(R2, "rs1"), s(R2, "rs2")];
const PAIR_UNARY: &[Slot] = &[s(R2, "rd"), s(R2, "rs1")];
const PAIR_TERNARY: &[Slot] = &[s(R2, "rd"), s(R2, "rs1"), s(R2, "rs2"), s(R2, "rs3")];
const BFE: &[Slot] = &[s(R, "rd"), s(R, "src"), s(R, "offset"), s(R, "width")];
const BFI: &[Slot] = &[
    s(R, "rd"),
    s(R, "base"),
    s(R, "insert"),
    s(R, "offset"),
    s(R, "width"),
];
const COMPARE: &[Slot] = &[s(P, "pd"), s(R, "rs1"), s(R, "rs2")];
const SELECT: &[Slot] = &[s(R, "rd"), s(P, "p"), s(R, "rs1"), s(R, "rs2")];
const CVT_FROM_PAIR: &[Slot] = &[s(R, "rd"), s(R2, "rs1")];
const CVT_TO_PAIR: &[Slot] = &[s(R2, "rd"), s(R, "rs1")];
const LOAD: &[Slot] = &[s(R, "rd"), s(R, "addr")];
const LOAD_PAIR: &[Slot] = &[s(R2, "rd"), s(R, "addr")];
const LOAD_QUAD: &[Slot] = &[s(R4, "rd"), s(R, "addr")];
const STORE: &[Slot] = &[s(R, "addr"), s(R, "val")];
const STORE_PAIR: &[Slot] = &[s(R, "addr"), s(R2, "val")];
const STORE_QUAD: &[Slot] = &[s(R, "addr"), s(R4, "val")];
const LOCAL_ATOMIC: &[Slot] = &[s(R, "rd"), s(R, "addr"), s(R, "val")];
const LOCAL_CAS: &[Slot] = &[s(R, "rd"), s(R, "addr"), s(R, "expected"), s(R, "desired")];
const ATOMIC: &[Slot] = &[s(R, "rd"), s(R, "addr"), s(R, "val"), s(Scope, "scope")];
const CAS: &[Slot] = &[
    s(R, "rd"),
    s(R, "addr"),
    s(R, "expected"),
    s(R, "desired"),
    s(Scope, "scope"),
];
const SHUFFLE: &[Slot] = &[s(R, "rd"), s(R, "src"), s(R, "lane")];
const SHUFFLE_DELTA: &[Slot] = &[s(R, "rd"), s(R, "src"), s(R, "delta")];
const SHUFFLE_MASK: &[Slot] = &[s(R, "rd"), s(R, "src"), s(R, "mask")];
const BALLOT: &[Slot] = &[s(R, "rd"), s(P, "p")];
const VOTE: &[Slot] = &[s(P, "pd"), s(P, "ps")];
const MMA_LOAD: &[Slot] = &[s(Frag, "frag"), s(R, "addr"), s(R, "stride")];
const MMA_STORE: &[Slot] = &[s(R, "addr"), s(R, "stride"), s(Frag, "frag")];
const MMA_COMPUTE: &[Slot] = &[s(Frag, "a"), s(Frag, "b"), s(Frag, "c")];
const PREDICATE: &[Slot] = &[s(P, "p")];
const CALL: &[Slot] = &[s(Label, "label")];
const FENCE: &[Slot] = &[s(Scope, "scope")];
const MOV_SR: &[Slot] = &[s(R, "rd"), s(Sr, "sr")];
const MOV_IMM: &[Slot] = &[s(R, "rd"), s(Imm, "imm")];

const PREDICATE_BINARY: &[Slot] = &[s(P, "pd"), s(P, "pa"), s(P, "pb")];
const PREDICATE_UNARY: &[Slot] = &[s(P, "pd"), s(P, "pa")];

/// A row's operands column as `(slots, form, immediates)`: `(SLOTS, Immediates)`, or
/// `(SLOTS, Immediates, Form)` for the atomics.
macro_rules! operands {
    (($slots:ident, $immediates:ident)) => {
        ($slots, Form::Plain, Immediates::$immediates)
    };
    (($slots:ident, $immediates:ident, $form:ident)) => {
        ($slots, Form::$form, Immediates::$immediates)
    };
}

const fn entry(
    name: &'static str,
    op: Op,
    (slots, form, immediates): (&'static [Slot], Form, Immediates),
    dialect: bool,
) -> Mnemonic {
    Mnemonic {
        name,
        op,
        slots,
        form,
        immediates,
        dialect,
    }
}

/// Writes [`MNEMONICS`] from the `syntax` projection of the table of operations.
macro_rules! define_mnemonics {
    (() [$( $op:ident $name:literal $operands:tt $dialect:literal; )*]) => {
        /// Every `wave-asm` mnemonic, in the order of the ISA reference, then the dialect-only
        /// ones.
        pub const MNEMONICS: &[Mnemonic] = &[$( entry($name, Op::$op, operands!($operands), $dialect), )*];
    };
}
crate::ops::for_each_op!(syntax => define_mnemonics());

/// Number of mnemonics `wave-asm` itself accepts.
pub const WAVE_ASM_COUNT: usize = 164;

/// Writes [`PREDICATE_LOGIC`] from the `logic` projection of the table of operations.
macro_rules! define_predicate_logic {
    (() [$( $op:ident $name:literal $operands:tt; )*]) => {
        /// Predicate logic (docs dialect): `and/or/xor pd, pa, pb`, `not pd, pa`.
        pub const PREDICATE_LOGIC: &[(&str, Op, &[Slot])] = &[$( ($name, Op::$op, operands!($operands).0), )*];
    };
}
crate::ops::for_each_op!(logic => define_predicate_logic());

pub fn find(name: &str) -> Option<&'static Mnemonic> {
    MNEMONICS.iter().find(|entry| entry.name == name)
}

/// Cache hints: accepted after a mnemonic and thrown away, like `wave-asm` does.
pub const CACHE_HINTS: [&str; 3] = ["cached", "uncached", "streaming"];

/// A mnemonic as written, split into the table entry and how it was spelled.
#[derive(Clone, Copy, Debug)]
pub struct Resolved {
    pub entry: &'static Mnemonic,
    /// Written with dots (`icmp.lt`): docs dialect.
    pub dotted: bool,
}

/// Looks a written mnemonic up: strips cache hints, and reads docs-dialect dots as underscores
/// (`icmp.lt` → `icmp_lt`).
pub fn resolve(written: &str) -> Option<Resolved> {
    let mut parts: Vec<&str> = written.split('.').collect();
    while parts.len() > 1 && parts.last().is_some_and(|p| CACHE_HINTS.contains(p)) {
        parts.pop();
    }
    let name = parts.join("_");
    find(&name).map(|entry| Resolved {
        entry,
        dotted: parts.len() > 1,
    })
}

/// The written name without its cache hints.
pub fn strip_cache_hints(written: &str) -> &str {
    let mut end = written.len();
    loop {
        let head = &written[..end];
        match head.rsplit_once('.') {
            Some((before, hint)) if CACHE_HINTS.contains(&hint) => end = before.len(),
            _ => return head,
        }
    }
}
