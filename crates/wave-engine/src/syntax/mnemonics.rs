//! The mnemonic table: every `wave-asm` mnemonic (164) plus the three underscore forms only the
//! WAVE docs use, each with its [`Op`] and operand shape.
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

const fn m(name: &'static str, op: Op, slots: &'static [Slot], immediates: Immediates) -> Mnemonic {
    Mnemonic {
        name,
        op,
        slots,
        form: Form::Plain,
        immediates,
        dialect: false,
    }
}

const fn atomic(name: &'static str, op: Op, slots: &'static [Slot], form: Form) -> Mnemonic {
    Mnemonic {
        name,
        op,
        slots,
        form,
        immediates: Immediates::None,
        dialect: false,
    }
}

const fn dialect(
    name: &'static str,
    op: Op,
    slots: &'static [Slot],
    immediates: Immediates,
) -> Mnemonic {
    Mnemonic {
        name,
        op,
        slots,
        form: Form::Plain,
        immediates,
        dialect: true,
    }
}

use Immediates::{Any, Bits, Float, Int};
const NO: Immediates = Immediates::None;
const LOCAL: Form = Form::LocalAtomic;
const DEVICE: Form = Form::DeviceAtomic;

/// Every `wave-asm` mnemonic, in the order of the ISA reference, then the dialect-only ones.
#[rustfmt::skip]
pub const MNEMONICS: &[Mnemonic] = &[
    // Integer.
    m("iadd", Op::IAdd, BINARY, Int),
    m("isub", Op::ISub, BINARY, Int),
    m("imul", Op::IMul, BINARY, Int),
    m("imul_hi", Op::IMulHi, BINARY, Int),
    m("idiv", Op::IDiv, BINARY, Int),
    m("imod", Op::IMod, BINARY, Int),
    m("imin", Op::IMin, BINARY, Int),
    m("imax", Op::IMax, BINARY, Int),
    m("ineg", Op::INeg, UNARY, Int),
    m("iabs", Op::IAbs, UNARY, Int),
    m("imad", Op::IMad, TERNARY, Int),
    m("iclamp", Op::IClamp, CLAMP, Int),
    // F32.
    m("fadd", Op::FAdd, BINARY, Float),
    m("fsub", Op::FSub, BINARY, Float),
    m("fmul", Op::FMul, BINARY, Float),
    m("fdiv", Op::FDiv, BINARY, Float),
    m("fmin", Op::FMin, BINARY, Float),
    m("fmax", Op::FMax, BINARY, Float),
    m("fneg", Op::FNeg, UNARY, Float),
    m("fabs", Op::FAbs, UNARY, Float),
    m("fsqrt", Op::FSqrt, UNARY, Float),
    m("frsqrt", Op::FRsqrt, UNARY, Float),
    m("frcp", Op::FRcp, UNARY, Float),
    m("ffloor", Op::FFloor, UNARY, Float),
    m("fceil", Op::FCeil, UNARY, Float),
    m("fround", Op::FRound, UNARY, Float),
    m("ftrunc", Op::FTrunc, UNARY, Float),
    m("ffract", Op::FFract, UNARY, Float),
    m("fsat", Op::FSat, UNARY, Float),
    m("fsin", Op::FSin, UNARY, Float),
    m("fcos", Op::FCos, UNARY, Float),
    m("fexp2", Op::FExp2, UNARY, Float),
    m("flog2", Op::FLog2, UNARY, Float),
    m("fma", Op::Fma, TERNARY, Float),
    m("fclamp", Op::FClamp, CLAMP, Float),
    // F16.
    m("hadd", Op::HAdd, BINARY, Bits),
    m("hsub", Op::HSub, BINARY, Bits),
    m("hmul", Op::HMul, BINARY, Bits),
    m("hadd2", Op::HAdd2, BINARY, Bits),
    m("hmul2", Op::HMul2, BINARY, Bits),
    m("hma", Op::Hma, TERNARY, Bits),
    m("hma2", Op::Hma2, TERNARY, Bits),
    // BF16.
    m("badd", Op::BAdd, BINARY, Bits),
    m("bsub", Op::BSub, BINARY, Bits),
    m("bmul", Op::BMul, BINARY, Bits),
    m("badd2", Op::BAdd2, BINARY, Bits),
    m("bmul2", Op::BMul2, BINARY, Bits),
    m("bma", Op::Bma, TERNARY, Bits),
    m("bma2", Op::Bma2, TERNARY, Bits),
    // F64 in register pairs.
    m("dadd", Op::DAdd, PAIR_BINARY, NO),
    m("dsub", Op::DSub, PAIR_BINARY, NO),
    m("dmul", Op::DMul, PAIR_BINARY, NO),
    m("ddiv", Op::DDiv, PAIR_BINARY, NO),
    m("dma", Op::Dma, PAIR_TERNARY, NO),
    m("dsqrt", Op::DSqrt, PAIR_UNARY, NO),
    // Bitwise.
    m("and", Op::And, BINARY, Int),
    m("or", Op::Or, BINARY, Int),
    m("xor", Op::Xor, BINARY, Int),
    m("shl", Op::Shl, BINARY, Int),
    m("shr", Op::Shr, BINARY, Int),
    m("sar", Op::Sar, BINARY, Int),
    m("not", Op::Not, UNARY, Int),
    m("bitcount", Op::BitCount, UNARY, Int),
    m("bitfind", Op::BitFind, UNARY, Int),
    m("bitrev", Op::BitRev, UNARY, Int),
    m("bfe", Op::Bfe, BFE, Int),
    m("bfi", Op::Bfi, BFI, Int),
    // Compares.
    m("icmp_eq", Op::IcmpEq, COMPARE, Int),
    m("icmp_ne", Op::IcmpNe, COMPARE, Int),
    m("icmp_lt", Op::IcmpLt, COMPARE, Int),
    m("icmp_le", Op::IcmpLe, COMPARE, Int),
    m("icmp_gt", Op::IcmpGt, COMPARE, Int),
    m("icmp_ge", Op::IcmpGe, COMPARE, Int),
    m("ucmp_lt", Op::UcmpLt, COMPARE, Int),
    m("ucmp_le", Op::UcmpLe, COMPARE, Int),
    m("fcmp_eq", Op::FcmpEq, COMPARE, Float),
    m("fcmp_ne", Op::FcmpNe, COMPARE, Float),
    m("fcmp_lt", Op::FcmpLt, COMPARE, Float),
    m("fcmp_le", Op::FcmpLe, COMPARE, Float),
    m("fcmp_gt", Op::FcmpGt, COMPARE, Float),
    m("fcmp_ord", Op::FcmpOrd, COMPARE, Float),
    m("fcmp_unord", Op::FcmpUnord, COMPARE, Float),
    m("select", Op::Select, SELECT, Any),
    // Conversions.
    m("cvt_f32_i32", Op::CvtF32I32, UNARY, NO),
    m("cvt_f32_u32", Op::CvtF32U32, UNARY, NO),
    m("cvt_i32_f32", Op::CvtI32F32, UNARY, NO),
    m("cvt_u32_f32", Op::CvtU32F32, UNARY, NO),
    m("cvt_f32_f16", Op::CvtF32F16, UNARY, NO),
    m("cvt_f16_f32", Op::CvtF16F32, UNARY, NO),
    m("cvt_f32_f64", Op::CvtF32F64, CVT_FROM_PAIR, NO),
    m("cvt_f64_f32", Op::CvtF64F32, CVT_TO_PAIR, NO),
    m("cvt_f32_bf16", Op::CvtF32Bf16, UNARY, NO),
    m("cvt_bf16_f32", Op::CvtBf16F32, UNARY, NO),
    // Memory.
    m("local_load_u8", Op::LocalLoadU8, LOAD, NO),
    m("local_load_u16", Op::LocalLoadU16, LOAD, NO),
    m("local_load_u32", Op::LocalLoadU32, LOAD, NO),
    m("local_load_u64", Op::LocalLoadU64, LOAD_PAIR, NO),
    m("local_store_u8", Op::LocalStoreU8, STORE, NO),
    m("local_store_u16", Op::LocalStoreU16, STORE, NO),
    m("local_store_u32", Op::LocalStoreU32, STORE, NO),
    m("local_store_u64", Op::LocalStoreU64, STORE_PAIR, NO),
    m("device_load_u8", Op::DeviceLoadU8, LOAD, NO),
    m("device_load_u16", Op::DeviceLoadU16, LOAD, NO),
    m("device_load_u32", Op::DeviceLoadU32, LOAD, NO),
    m("device_load_u64", Op::DeviceLoadU64, LOAD_PAIR, NO),
    m("device_load_u128", Op::DeviceLoadU128, LOAD_QUAD, NO),
    m("device_store_u8", Op::DeviceStoreU8, STORE, NO),
    m("device_store_u16", Op::DeviceStoreU16, STORE, NO),
    m("device_store_u32", Op::DeviceStoreU32, STORE, NO),
    m("device_store_u64", Op::DeviceStoreU64, STORE_PAIR, NO),
    m("device_store_u128", Op::DeviceStoreU128, STORE_QUAD, NO),
    // Atomics.
    atomic("local_atomic_add", Op::LocalAtomicAdd, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_sub", Op::LocalAtomicSub, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_min", Op::LocalAtomicMin, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_max", Op::LocalAtomicMax, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_and", Op::LocalAtomicAnd, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_or", Op::LocalAtomicOr, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_xor", Op::LocalAtomicXor, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_exchange", Op::LocalAtomicExchange, LOCAL_ATOMIC, LOCAL),
    atomic("local_atomic_cas", Op::LocalAtomicCas, LOCAL_CAS, LOCAL),
    atomic("atomic_add", Op::AtomicAdd, ATOMIC, DEVICE),
    atomic("atomic_sub", Op::AtomicSub, ATOMIC, DEVICE),
    atomic("atomic_min", Op::AtomicMin, ATOMIC, DEVICE),
    atomic("atomic_max", Op::AtomicMax, ATOMIC, DEVICE),
    atomic("atomic_and", Op::AtomicAnd, ATOMIC, DEVICE),
    atomic("atomic_or", Op::AtomicOr, ATOMIC, DEVICE),
    atomic("atomic_xor", Op::AtomicXor, ATOMIC, DEVICE),
    atomic("atomic_exchange", Op::AtomicExchange, ATOMIC, DEVICE),
    atomic("atomic_cas", Op::AtomicCas, CAS, DEVICE),
    // Wave operations.
    m("wave_shuffle", Op::WaveShuffle, SHUFFLE, NO),
    m("wave_shuffle_up", Op::WaveShuffleUp, SHUFFLE_DELTA, NO),
    m("wave_shuffle_down", Op::WaveShuffleDown, SHUFFLE_DELTA, NO),
    m("wave_shuffle_xor", Op::WaveShuffleXor, SHUFFLE_MASK, NO),
    m("wave_broadcast", Op::WaveBroadcast, SHUFFLE, NO),
    m("wave_ballot", Op::WaveBallot, BALLOT, NO),
    m("wave_any", Op::WaveAny, VOTE, NO),
    m("wave_all", Op::WaveAll, VOTE, NO),
    m("wave_prefix_sum", Op::WavePrefixSum, UNARY, NO),
    m("wave_reduce_add", Op::WaveReduceAdd, UNARY, NO),
    m("wave_reduce_min", Op::WaveReduceMin, UNARY, NO),
    m("wave_reduce_max", Op::WaveReduceMax, UNARY, NO),
    // MMA.
    m("mma_load_a", Op::MmaLoadA, MMA_LOAD, NO),
    m("mma_load_b", Op::MmaLoadB, MMA_LOAD, NO),
    m("mma_store_c", Op::MmaStoreC, MMA_STORE, NO),
    m("mma_compute", Op::MmaCompute, MMA_COMPUTE, NO),
    // Control.
    m("if", Op::If, PREDICATE, NO),
    m("else", Op::Else, NONE, NO),
    m("endif", Op::EndIf, NONE, NO),
    m("loop", Op::Loop, NONE, NO),
    m("break", Op::Break, PREDICATE, NO),
    m("continue", Op::Continue, PREDICATE, NO),
    m("endloop", Op::EndLoop, NONE, NO),
    m("call", Op::Call, CALL, NO),
    // Sync.
    m("return", Op::Return, NONE, NO),
    m("halt", Op::Halt, NONE, NO),
    m("barrier", Op::Barrier, NONE, NO),
    m("wait", Op::Wait, NONE, NO),
    m("nop", Op::Nop, NONE, NO),
    m("fence_acquire", Op::FenceAcquire, FENCE, NO),
    m("fence_release", Op::FenceRelease, FENCE, NO),
    m("fence_acq_rel", Op::FenceAcqRel, FENCE, NO),
    // Moves (`mov rd, sr_X` is rewritten to `mov_sr` by the selector).
    m("mov", Op::Mov, UNARY, NO),
    m("mov_sr", Op::MovSr, MOV_SR, NO),
    m("mov_imm", Op::MovImm, MOV_IMM, NO),
    // Docs dialect only.
    dialect("ucmp_gt", Op::UcmpGt, COMPARE, Int),
    dialect("ucmp_ge", Op::UcmpGe, COMPARE, Int),
    dialect("fcmp_ge", Op::FcmpGe, COMPARE, Float),
];

/// Number of mnemonics `wave-asm` itself accepts.
pub const WAVE_ASM_COUNT: usize = 164;

/// Predicate logic (docs dialect): `and/or/xor pd, pa, pb`, `not pd, pa`.
pub const PREDICATE_LOGIC: &[(&str, Op, &[Slot])] = &[
    ("and", Op::PAnd, &[s(P, "pd"), s(P, "pa"), s(P, "pb")]),
    ("or", Op::POr, &[s(P, "pd"), s(P, "pa"), s(P, "pb")]),
    ("xor", Op::PXor, &[s(P, "pd"), s(P, "pa"), s(P, "pb")]),
    ("not", Op::PNot, &[s(P, "pd"), s(P, "pa")]),
];

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
