//! One entry point per operand shape, for callers that hold an [`Op`] rather than a function.
//!
//! The machine's hot loops match on the op once and call the specific function (for example
//! [`super::int::iadd`]) inside the lane loop, which lets the compiler vectorise; these dispatchers
//! are for everything else (single-lane stepping, tests, constant folding). Each one covers one
//! shape (see [`shape`]) and returns a documented neutral value (0, or `false` for [`compare`]) for
//! an op outside its shape; none panics.

use super::{bf16, bitwise, compare as cmp, convert, float, fp16, fp64, int};
use crate::instr::Op;

/// How a numeric op reads and writes registers, so a caller knows which dispatcher to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `rd = f(a)`: [`unary`].
    Unary,
    /// `rd = f(a, b)`: [`binary`].
    Binary,
    /// `rd = f(a, b, c)`: [`ternary`].
    Ternary,
    /// `rd = f(a, b, c, d)` (only `bfi`): [`quaternary`].
    Quaternary,
    /// `pd = f(a, b)`: [`compare`].
    Compare,
    /// Register pairs in and out, one operand: [`f64_unary`].
    PairUnary,
    /// Register pairs in and out, two operands: [`f64_binary`].
    PairBinary,
    /// Register pairs in and out, three operands: [`f64_ternary`].
    PairTernary,
    /// A register pair in, one register out (`cvt_f32_f64`): [`from_pair`].
    FromPair,
    /// One register in, a register pair out (`cvt_f64_f32`): [`to_pair`].
    ToPair,
    /// Not a per-lane numeric op (memory, control flow, wave ops, moves, `select`, predicate logic).
    NotNumeric,
}

/// The shape of `op`. Exhaustive on purpose: a new [`Op`] variant fails to compile until it is
/// classified here.
pub const fn shape(op: Op) -> Shape {
    use Op::*;
    match op {
        INeg | IAbs | FNeg | FAbs | FSqrt | FRsqrt | FRcp | FFloor | FCeil | FRound | FTrunc
        | FFract | FSat | FSin | FCos | FExp2 | FLog2 | Not | BitCount | BitFind | BitRev
        | CvtF32I32 | CvtF32U32 | CvtI32F32 | CvtU32F32 | CvtF32F16 | CvtF16F32 | CvtF32Bf16
        | CvtBf16F32 => Shape::Unary,
        IAdd | ISub | IMul | IMulHi | IDiv | IMod | IMin | IMax | FAdd | FSub | FMul | FDiv
        | FMin | FMax | HAdd | HSub | HMul | HAdd2 | HMul2 | BAdd | BSub | BMul | BAdd2 | BMul2
        | And | Or | Xor | Shl | Shr | Sar => Shape::Binary,
        IMad | IClamp | Fma | FClamp | Hma | Hma2 | Bma | Bma2 | Bfe => Shape::Ternary,
        Bfi => Shape::Quaternary,
        IcmpEq | IcmpNe | IcmpLt | IcmpLe | IcmpGt | IcmpGe | UcmpLt | UcmpLe | UcmpGt | UcmpGe
        | FcmpEq | FcmpNe | FcmpLt | FcmpLe | FcmpGt | FcmpGe | FcmpOrd | FcmpUnord => {
            Shape::Compare
        }
        DSqrt => Shape::PairUnary,
        DAdd | DSub | DMul | DDiv => Shape::PairBinary,
        Dma => Shape::PairTernary,
        CvtF32F64 => Shape::FromPair,
        CvtF64F32 => Shape::ToPair,
        PAnd | POr | PXor | PNot | Select | LocalLoadU8 | LocalLoadU16 | LocalLoadU32
        | LocalLoadU64 | LocalStoreU8 | LocalStoreU16 | LocalStoreU32 | LocalStoreU64
        | DeviceLoadU8 | DeviceLoadU16 | DeviceLoadU32 | DeviceLoadU64 | DeviceLoadU128
        | DeviceStoreU8 | DeviceStoreU16 | DeviceStoreU32 | DeviceStoreU64 | DeviceStoreU128
        | LocalAtomicAdd | LocalAtomicSub | LocalAtomicMin | LocalAtomicMax | LocalAtomicAnd
        | LocalAtomicOr | LocalAtomicXor | LocalAtomicExchange | LocalAtomicCas | AtomicAdd
        | AtomicSub | AtomicMin | AtomicMax | AtomicAnd | AtomicOr | AtomicXor | AtomicExchange
        | AtomicCas | WaveShuffle | WaveShuffleUp | WaveShuffleDown | WaveShuffleXor
        | WaveBroadcast | WaveBallot | WaveAny | WaveAll | WavePrefixSum | WaveReduceAdd
        | WaveReduceMin | WaveReduceMax | MmaLoadA | MmaLoadB | MmaStoreC | MmaCompute | If
        | Else | EndIf | Loop | Break | Continue | EndLoop | Call | Return | Halt | Barrier
        | FenceAcquire | FenceRelease | FenceAcqRel | Wait | Nop | Mov | MovImm | MovSr => {
            Shape::NotNumeric
        }
    }
}

/// Every [`Shape::Unary`] op; 0 for any other op.
#[inline]
pub fn unary(op: Op, a: u32) -> u32 {
    match op {
        Op::INeg => int::ineg(a),
        Op::IAbs => int::iabs(a),
        Op::FNeg => float::fneg(a),
        Op::FAbs => float::fabs(a),
        Op::FSqrt => float::fsqrt(a),
        Op::FRsqrt => float::frsqrt(a),
        Op::FRcp => float::frcp(a),
        Op::FFloor => float::ffloor(a),
        Op::FCeil => float::fceil(a),
        Op::FRound => float::fround(a),
        Op::FTrunc => float::ftrunc(a),
        Op::FFract => float::ffract(a),
        Op::FSat => float::fsat(a),
        Op::FSin => float::fsin(a),
        Op::FCos => float::fcos(a),
        Op::FExp2 => float::fexp2(a),
        Op::FLog2 => float::flog2(a),
        Op::Not => bitwise::not(a),
        Op::BitCount => bitwise::bitcount(a),
        Op::BitFind => bitwise::bitfind(a),
        Op::BitRev => bitwise::bitrev(a),
        Op::CvtF32I32 => convert::cvt_f32_i32(a),
        Op::CvtF32U32 => convert::cvt_f32_u32(a),
        Op::CvtI32F32 => convert::cvt_i32_f32(a),
        Op::CvtU32F32 => convert::cvt_u32_f32(a),
        Op::CvtF32F16 => convert::cvt_f32_f16(a),
        Op::CvtF16F32 => convert::cvt_f16_f32(a),
        Op::CvtF32Bf16 => convert::cvt_f32_bf16(a),
        Op::CvtBf16F32 => convert::cvt_bf16_f32(a),
        _ => 0,
    }
}

/// Every [`Shape::Binary`] op; 0 for any other op.
#[inline]
pub fn binary(op: Op, a: u32, b: u32) -> u32 {
    match op {
        Op::IAdd => int::iadd(a, b),
        Op::ISub => int::isub(a, b),
        Op::IMul => int::imul(a, b),
        Op::IMulHi => int::imul_hi(a, b),
        Op::IDiv => int::idiv(a, b),
        Op::IMod => int::imod(a, b),
        Op::IMin => int::imin(a, b),
        Op::IMax => int::imax(a, b),
        Op::FAdd => float::fadd(a, b),
        Op::FSub => float::fsub(a, b),
        Op::FMul => float::fmul(a, b),
        Op::FDiv => float::fdiv(a, b),
        Op::FMin => float::fmin(a, b),
        Op::FMax => float::fmax(a, b),
        Op::HAdd => fp16::hadd(a, b),
        Op::HSub => fp16::hsub(a, b),
        Op::HMul => fp16::hmul(a, b),
        Op::HAdd2 => fp16::hadd2(a, b),
        Op::HMul2 => fp16::hmul2(a, b),
        Op::BAdd => bf16::badd(a, b),
        Op::BSub => bf16::bsub(a, b),
        Op::BMul => bf16::bmul(a, b),
        Op::BAdd2 => bf16::badd2(a, b),
        Op::BMul2 => bf16::bmul2(a, b),
        Op::And => bitwise::and(a, b),
        Op::Or => bitwise::or(a, b),
        Op::Xor => bitwise::xor(a, b),
        Op::Shl => bitwise::shl(a, b),
        Op::Shr => bitwise::shr(a, b),
        Op::Sar => bitwise::sar(a, b),
        _ => 0,
    }
}

/// Every [`Shape::Ternary`] op (`bfe` is `src, offset, width`); 0 for any other op.
#[inline]
pub fn ternary(op: Op, a: u32, b: u32, c: u32) -> u32 {
    match op {
        Op::IMad => int::imad(a, b, c),
        Op::IClamp => int::iclamp(a, b, c),
        Op::Fma => float::fma(a, b, c),
        Op::FClamp => float::fclamp(a, b, c),
        Op::Hma => fp16::hma(a, b, c),
        Op::Hma2 => fp16::hma2(a, b, c),
        Op::Bma => bf16::bma(a, b, c),
        Op::Bma2 => bf16::bma2(a, b, c),
        Op::Bfe => bitwise::bfe(a, b, c),
        _ => 0,
    }
}

/// The [`Shape::Quaternary`] op `bfi` (`base, insert, offset, width`); 0 for any other op.
#[inline]
pub fn quaternary(op: Op, a: u32, b: u32, c: u32, d: u32) -> u32 {
    match op {
        Op::Bfi => bitwise::bfi(a, b, c, d),
        _ => 0,
    }
}

/// Every [`Shape::Compare`] op; `false` for any other op.
#[inline]
pub fn compare(op: Op, a: u32, b: u32) -> bool {
    match op {
        Op::IcmpEq => cmp::icmp_eq(a, b),
        Op::IcmpNe => cmp::icmp_ne(a, b),
        Op::IcmpLt => cmp::icmp_lt(a, b),
        Op::IcmpLe => cmp::icmp_le(a, b),
        Op::IcmpGt => cmp::icmp_gt(a, b),
        Op::IcmpGe => cmp::icmp_ge(a, b),
        Op::UcmpLt => cmp::ucmp_lt(a, b),
        Op::UcmpLe => cmp::ucmp_le(a, b),
        Op::UcmpGt => cmp::ucmp_gt(a, b),
        Op::UcmpGe => cmp::ucmp_ge(a, b),
        Op::FcmpEq => cmp::fcmp_eq(a, b),
        Op::FcmpNe => cmp::fcmp_ne(a, b),
        Op::FcmpLt => cmp::fcmp_lt(a, b),
        Op::FcmpLe => cmp::fcmp_le(a, b),
        Op::FcmpGt => cmp::fcmp_gt(a, b),
        Op::FcmpGe => cmp::fcmp_ge(a, b),
        Op::FcmpOrd => cmp::fcmp_ord(a, b),
        Op::FcmpUnord => cmp::fcmp_unord(a, b),
        _ => false,
    }
}

/// [`Shape::PairUnary`] (`dsqrt`) on f64 bit patterns (see [`fp64::join`]); 0 for any other op.
#[inline]
pub fn f64_unary(op: Op, a: u64) -> u64 {
    match op {
        Op::DSqrt => fp64::dsqrt(a),
        _ => 0,
    }
}

/// Every [`Shape::PairBinary`] op on f64 bit patterns; 0 for any other op.
#[inline]
pub fn f64_binary(op: Op, a: u64, b: u64) -> u64 {
    match op {
        Op::DAdd => fp64::dadd(a, b),
        Op::DSub => fp64::dsub(a, b),
        Op::DMul => fp64::dmul(a, b),
        Op::DDiv => fp64::ddiv(a, b),
        _ => 0,
    }
}

/// [`Shape::PairTernary`] (`dma`) on f64 bit patterns; 0 for any other op.
#[inline]
pub fn f64_ternary(op: Op, a: u64, b: u64, c: u64) -> u64 {
    match op {
        Op::Dma => fp64::dma(a, b, c),
        _ => 0,
    }
}

/// [`Shape::FromPair`] (`cvt_f32_f64`): f64 bit pattern in, one register out; 0 for any other op.
#[inline]
pub fn from_pair(op: Op, a: u64) -> u32 {
    match op {
        Op::CvtF32F64 => convert::cvt_f32_f64(a),
        _ => 0,
    }
}

/// [`Shape::ToPair`] (`cvt_f64_f32`): one register in, f64 bit pattern out; 0 for any other op.
#[inline]
pub fn to_pair(op: Op, a: u32) -> u64 {
    match op {
        Op::CvtF64F32 => convert::cvt_f64_f32(a),
        _ => 0,
    }
}
