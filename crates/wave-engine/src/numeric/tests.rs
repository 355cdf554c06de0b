//! Unit tests for what the wave-emu 0.1.2 oracle (tests/numeric_oracle.rs) cannot reach: bf16,
//! the clamp rules the product fixes (docs/spec-departures.md, "clamp with crossed bounds"),
//! `ineg(MIN)`, and that no function panics on edge inputs.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;

use super::*;

/// SplitMix64, for reproducible random inputs: the low 32 bits of each 64-bit output.
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::seed_from_u64(seed))
    }
    fn word(&mut self) -> u32 {
        self.0.next_u64() as u32
    }
}

fn bits(value: f32) -> u32 {
    value.to_bits()
}

const NAN: u32 = 0x7FC0_0000;

#[test]
fn iclamp_matches_clamp_when_bounds_are_ordered_and_lets_hi_win_otherwise() {
    let mut rng = Rng::new(1);
    for _ in 0..10_000 {
        let (x, p, q) = (rng.word(), rng.word() as i32, rng.word() as i32);
        let (lo, hi) = (p.min(q), p.max(q));
        assert_eq!(
            int::iclamp(x, lo as u32, hi as u32),
            (x as i32).clamp(lo, hi) as u32
        );
        if lo != hi {
            // Swapped bounds: no panic, and the result is always `hi` (here the smaller value).
            assert_eq!(int::iclamp(x, hi as u32, lo as u32), lo as u32);
        }
    }
    assert_eq!(int::iclamp(5, 10, 0), 0);
    assert_eq!(int::iclamp(-5i32 as u32, 10, 0), 0);
    assert_eq!(
        int::iclamp(i32::MIN as u32, i32::MAX as u32, i32::MIN as u32),
        i32::MIN as u32
    );
}

#[test]
fn fclamp_matches_clamp_when_bounds_are_valid() {
    let mut rng = Rng::new(2);
    for _ in 0..10_000 {
        let x = rng.word();
        let (p, q) = (f32::from_bits(rng.word()), f32::from_bits(rng.word()));
        if p.is_nan() || q.is_nan() {
            continue;
        }
        let (lo, hi) = if p <= q { (p, q) } else { (q, p) };
        assert_eq!(
            float::fclamp(x, bits(lo), bits(hi)),
            bits(f32::from_bits(x).clamp(lo, hi)),
            "x={x:#x} lo={lo} hi={hi}"
        );
    }
}

#[test]
fn fclamp_has_a_result_where_the_reference_panics() {
    // lo > hi: hi wins for every non-NaN x.
    for x in [-10.0f32, 0.5, 3.0, 100.0, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(float::fclamp(bits(x), bits(2.0), bits(1.0)), bits(1.0));
    }
    // A NaN x stays NaN (same bits), whatever the bounds.
    assert_eq!(
        float::fclamp(0x7FC0_1234, bits(2.0), bits(1.0)),
        0x7FC0_1234
    );
    assert_eq!(float::fclamp(0x7FC0_1234, NAN, NAN), 0x7FC0_1234);
    // A NaN bound is ignored: that side is unbounded.
    assert_eq!(float::fclamp(bits(-5.0), NAN, bits(1.0)), bits(-5.0));
    assert_eq!(float::fclamp(bits(5.0), NAN, bits(1.0)), bits(1.0));
    assert_eq!(float::fclamp(bits(5.0), bits(0.0), NAN), bits(5.0));
    assert_eq!(float::fclamp(bits(-5.0), bits(0.0), NAN), bits(0.0));
    assert_eq!(float::fclamp(bits(7.0), NAN, NAN), bits(7.0));
}

#[test]
fn fsat_keeps_nan_and_negative_zero() {
    assert_eq!(float::fsat(0x7FC0_0042), 0x7FC0_0042);
    assert_eq!(float::fsat(0x8000_0000), 0x8000_0000);
    assert_eq!(float::fsat(bits(-3.0)), bits(0.0));
    assert_eq!(float::fsat(bits(3.0)), bits(1.0));
    assert_eq!(float::fsat(bits(0.25)), bits(0.25));
}

#[test]
fn documented_f32_edge_cases() {
    let inf = bits(f32::INFINITY);
    assert_eq!(float::fdiv(bits(0.0), bits(0.0)), inf);
    assert_eq!(float::fdiv(bits(-3.0), bits(-0.0)), inf);
    assert_eq!(float::fdiv(NAN, bits(0.0)), inf);
    assert_eq!(float::fdiv(bits(1.0), bits(4.0)), bits(0.25));
    assert_eq!(float::fmin(NAN, bits(1.0)), bits(1.0));
    assert_eq!(float::fmax(bits(1.0), NAN), bits(1.0));
    assert_eq!(float::fmin(0x8000_0000, 0), 0x8000_0000);
    assert_eq!(float::fmin(0, 0x8000_0000), 0);
    assert_eq!(float::fround(bits(-2.5)), bits(-3.0));
    assert_eq!(float::fround(bits(2.5)), bits(3.0));
    assert_eq!(float::ffract(bits(-2.5)), bits(-0.5));
    assert_eq!(float::frcp(0x8000_0000), bits(f32::NEG_INFINITY));
}

#[test]
fn integer_edge_cases() {
    let min = i32::MIN as u32;
    assert_eq!(int::ineg(min), min);
    assert_eq!(int::iabs(min), 0x8000_0000);
    assert_eq!(int::idiv(min, u32::MAX), min);
    assert_eq!(int::imod(min, u32::MAX), 0);
    assert_eq!(int::idiv(7, 0), 0);
    assert_eq!(int::imod(7, 0), 0);
    assert_eq!(int::idiv(-7i32 as u32, 2), -3i32 as u32);
    assert_eq!(int::imod(-7i32 as u32, 2), -1i32 as u32);
    assert_eq!(int::imul_hi(u32::MAX, u32::MAX), 0xFFFF_FFFE);
    assert_eq!(int::imul_hi(0x8000_0000, u32::MAX), 0x7FFF_FFFF);
}

#[test]
fn bit_field_edge_cases() {
    assert_eq!(bitwise::bitfind(0), u32::MAX);
    assert_eq!(bitwise::bitfind(0x10000), 15);
    // The field runs off the top: missing bits read as zero.
    assert_eq!(bitwise::bfe(0xF000_0000, 28, 8), 0xF);
    assert_eq!(bitwise::bfe(0xFFFF_FFFF, 0, 32), 0); // width 32 & 31 = 0
    assert_eq!(bitwise::bfe(0xABCD_1234, 36, 8), 0x23); // offset 36 & 31 = 4
                                                        // Insert past bit 31: only the in-word part is written.
    assert_eq!(bitwise::bfi(0, 0xFF, 28, 8), 0xF000_0000);
    assert_eq!(bitwise::bfi(0x1234_5678, 0xFF, 4, 0), 0x1234_5678);
    assert_eq!(bitwise::bfi(0xFFFF_FFFF, 0, 8, 8), 0xFFFF_00FF);
    assert_eq!(bitwise::shl(1, 33), 2);
    assert_eq!(bitwise::sar(0x8000_0000, 31), u32::MAX);
    assert_eq!(bitwise::shr(0x8000_0000, 31), 1);
}

// bf16 ------------------------------------------------------------------------------------------

/// A random bf16 with a moderate exponent (2^-20 .. 2^20), so the f64 reference below is exact.
fn moderate_bf16(rng: &mut Rng) -> u32 {
    let exponent = 127 - 20 + (rng.word() % 41);
    ((rng.word() & 1) << 15) | (exponent << 7) | (rng.word() & 0x7F)
}

fn bf16_as_f64(bits: u32) -> f64 {
    f64::from(f32::from_bits((bits & 0xFFFF) << 16))
}

/// Independent reference: compute exactly in f64 (bf16 products and these sums are exact there),
/// round once to f32 (`as`, nearest-even: the same single rounding f32 arithmetic does), then keep
/// the top 16 bits.
fn truncate_to_bf16(value: f64) -> u32 {
    (value as f32).to_bits() >> 16
}

#[test]
fn bf16_scalar_ops_match_an_exact_f64_reference() {
    let mut rng = Rng::new(3);
    for _ in 0..20_000 {
        let (a, b, c) = (
            moderate_bf16(&mut rng),
            moderate_bf16(&mut rng),
            moderate_bf16(&mut rng),
        );
        let junk = rng.word() & 0xFFFF_0000;
        let (x, y, z) = (bf16_as_f64(a), bf16_as_f64(b), bf16_as_f64(c));
        assert_eq!(bf16::badd(a | junk, b), truncate_to_bf16(x + y));
        assert_eq!(bf16::bsub(a, b | junk), truncate_to_bf16(x - y));
        assert_eq!(bf16::bmul(a, b), truncate_to_bf16(x * y));
        assert_eq!(bf16::bma(a, b, c | junk), truncate_to_bf16(x * y + z));
    }
}

#[test]
fn bf16_truncates_instead_of_rounding() {
    // 1 + 3·2^-9 = 0x3F80_C000 in f32: truncation gives 1.0 (0x3F80); rounding would give 0x3F81.
    assert_eq!(bf16::badd(0x3F80, 0x3BC0), 0x3F80);
    assert_eq!(convert::cvt_bf16_f32(0x3F80_C000), 0x3F80);
    assert_eq!(convert::cvt_bf16_f32(0xBF80_FFFF), 0xBF80);
    assert_eq!(bf16::badd(0x3F80, 0x3F80), 0x4000); // 1 + 1 = 2
    assert_eq!(bf16::bmul(0x4040, 0xC000), 0xC0C0); // 3 × −2 = −6
    assert_eq!(bf16::bma(0x4000, 0x4040, 0x3F80), 0x40E0); // 2 × 3 + 1 = 7
                                                           // An f32 NaN whose payload is only in the low half truncates to Inf (documented).
    assert_eq!(convert::cvt_bf16_f32(0x7F80_0001), 0x7F80);
    assert_eq!(convert::cvt_bf16_f32(0x7FC0_0000), 0x7FC0);
    // Overflow goes to Inf through the f32 result; the upper input bits are ignored.
    assert_eq!(bf16::bmul(0xFFFF_7F7F, 0x4000), 0x7F80);
}

#[test]
fn bf16_conversions_round_trip() {
    for half in 0..=0xFFFFu32 {
        let widened = convert::cvt_f32_bf16(half | 0xABCD_0000);
        assert_eq!(widened, half << 16);
        assert_eq!(convert::cvt_bf16_f32(widened), half);
    }
}

#[test]
fn packed_ops_work_on_each_half_independently() {
    let mut rng = Rng::new(4);
    for _ in 0..20_000 {
        let (a, b, c) = (rng.word(), rng.word(), rng.word());
        let split = |packed: u32| (packed & 0xFFFF, packed >> 16);
        let join = |low: u32, high: u32| low | (high << 16);
        let ((al, ah), (bl, bh), (cl, ch)) = (split(a), split(b), split(c));
        assert_eq!(
            fp16::hadd2(a, b),
            join(fp16::hadd(al, bl), fp16::hadd(ah, bh))
        );
        assert_eq!(
            fp16::hmul2(a, b),
            join(fp16::hmul(al, bl), fp16::hmul(ah, bh))
        );
        assert_eq!(
            fp16::hma2(a, b, c),
            join(fp16::hma(al, bl, cl), fp16::hma(ah, bh, ch))
        );
        assert_eq!(
            bf16::badd2(a, b),
            join(bf16::badd(al, bl), bf16::badd(ah, bh))
        );
        assert_eq!(
            bf16::bmul2(a, b),
            join(bf16::bmul(al, bl), bf16::bmul(ah, bh))
        );
        assert_eq!(
            bf16::bma2(a, b, c),
            join(bf16::bma(al, bl, cl), bf16::bma(ah, bh, ch))
        );
        // Scalar results are zero-extended and ignore the high halves.
        assert_eq!(fp16::hadd(a, b) >> 16, 0);
        assert_eq!(fp16::hadd(a, b), fp16::hadd(al, bl));
        assert_eq!(bf16::badd(a, b), bf16::badd(al, bl));
    }
}

#[test]
fn f16_rounds_to_nearest_even() {
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to the even mantissa (1.0).
    assert_eq!(convert::cvt_f16_f32(0x3F80_1000), 0x3C00);
    // 1 + 3·2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to even (1 + 2^-9).
    assert_eq!(convert::cvt_f16_f32(0x3F80_3000), 0x3C02);
    assert_eq!(convert::cvt_f16_f32(bits(65520.0)), 0x7C00);
    assert_eq!(convert::cvt_f16_f32(bits(65504.0)), 0x7BFF);
    assert_eq!(convert::cvt_f32_f16(0xFFFF_3C00), bits(1.0));
    assert_eq!(fp16::hadd(0x3C00, 0x3C00), 0x4000);
}

#[test]
fn f64_pairs_round_trip() {
    let value = 1.0f64 / 3.0;
    let (low, high) = fp64::split(value.to_bits());
    assert_eq!(fp64::join(low, high), value.to_bits());
    assert_eq!(high, (value.to_bits() >> 32) as u32);
    let three = 3.0f64.to_bits();
    assert_eq!(f64::from_bits(fp64::dmul(value.to_bits(), three)), 1.0);
    assert_eq!(fp64::ddiv(1.0f64.to_bits(), 0), f64::INFINITY.to_bits());
    assert!(f64::from_bits(fp64::ddiv(0, 0)).is_nan());
    assert_eq!(convert::cvt_f64_f32(bits(1.5)), 1.5f64.to_bits());
    assert_eq!(convert::cvt_f32_f64(1.5f64.to_bits()), bits(1.5));
}

#[test]
fn conversions_saturate_and_map_nan_to_zero() {
    assert_eq!(convert::cvt_i32_f32(bits(2147483648.0)), 0x7FFF_FFFF);
    assert_eq!(convert::cvt_i32_f32(bits(-1e20)), 0x8000_0000);
    assert_eq!(convert::cvt_i32_f32(NAN), 0);
    assert_eq!(convert::cvt_u32_f32(bits(-2.5)), 0);
    assert_eq!(convert::cvt_u32_f32(bits(1e20)), u32::MAX);
    assert_eq!(convert::cvt_f32_i32(-1i32 as u32), bits(-1.0));
    assert_eq!(convert::cvt_f32_u32(u32::MAX), bits(4294967296.0));
}

#[test]
fn unsigned_min_and_max_compare_the_bits_as_unsigned() {
    assert_eq!(int::umin(u32::MAX, 1), 1);
    assert_eq!(int::umax(u32::MAX, 1), u32::MAX);
    // The signed forms disagree on the same bits.
    assert_eq!(int::imin(u32::MAX, 1), u32::MAX);
}

// Every function -------------------------------------------------------------------------------

/// Every per-lane function on single registers, by arity: the functions the machine's lane loops
/// call.
const UNARY: &[fn(u32) -> u32] = &[
    int::ineg,
    int::iabs,
    float::fneg,
    float::fabs,
    float::fsqrt,
    float::frsqrt,
    float::frcp,
    float::ffloor,
    float::fceil,
    float::fround,
    float::ftrunc,
    float::ffract,
    float::fsat,
    float::fsin,
    float::fcos,
    float::fexp2,
    float::flog2,
    bitwise::not,
    bitwise::bitcount,
    bitwise::bitfind,
    bitwise::bitrev,
    convert::cvt_f32_i32,
    convert::cvt_f32_u32,
    convert::cvt_i32_f32,
    convert::cvt_u32_f32,
    convert::cvt_f32_f16,
    convert::cvt_f16_f32,
    convert::cvt_f32_bf16,
    convert::cvt_bf16_f32,
];
const BINARY: &[fn(u32, u32) -> u32] = &[
    int::iadd,
    int::isub,
    int::imul,
    int::imul_hi,
    int::idiv,
    int::imod,
    int::imin,
    int::imax,
    int::umin,
    int::umax,
    float::fadd,
    float::fsub,
    float::fmul,
    float::fdiv,
    float::fmin,
    float::fmax,
    fp16::hadd,
    fp16::hsub,
    fp16::hmul,
    fp16::hadd2,
    fp16::hmul2,
    bf16::badd,
    bf16::bsub,
    bf16::bmul,
    bf16::badd2,
    bf16::bmul2,
    bitwise::and,
    bitwise::or,
    bitwise::xor,
    bitwise::shl,
    bitwise::shr,
    bitwise::sar,
];
const TERNARY: &[fn(u32, u32, u32) -> u32] = &[
    int::imad,
    int::iclamp,
    float::fma,
    float::fclamp,
    fp16::hma,
    fp16::hma2,
    bf16::bma,
    bf16::bma2,
    bitwise::bfe,
];
const COMPARES: &[fn(u32, u32) -> bool] = &[
    compare::icmp_eq,
    compare::icmp_ne,
    compare::icmp_lt,
    compare::icmp_le,
    compare::icmp_gt,
    compare::icmp_ge,
    compare::ucmp_lt,
    compare::ucmp_le,
    compare::ucmp_gt,
    compare::ucmp_ge,
    compare::fcmp_eq,
    compare::fcmp_ne,
    compare::fcmp_lt,
    compare::fcmp_le,
    compare::fcmp_gt,
    compare::fcmp_ge,
    compare::fcmp_ord,
    compare::fcmp_unord,
];

#[test]
fn no_op_panics_on_edge_inputs() {
    let edges = [
        0,
        1,
        31,
        32,
        33,
        u32::MAX,
        0x8000_0000,
        0x7FFF_FFFF,
        NAN,
        0x7F80_0001,
        0xFF80_0000,
        0x7F80_0000,
        0x0000_0001,
        0x7C01,
        0xFC00_7C00,
    ];
    for &a in &edges {
        for f in UNARY {
            let _ = f(a);
        }
        let _ = fp64::dsqrt(fp64::join(a, !a));
        let _ = convert::cvt_f64_f32(a);
        let _ = convert::cvt_f32_f64(fp64::join(!a, a));
        for &b in &edges {
            for f in BINARY {
                let _ = f(a, b);
            }
            for f in COMPARES {
                let _ = f(a, b);
            }
            let (x, y) = (fp64::join(a, b), fp64::join(b, a));
            for f in [fp64::dadd, fp64::dsub, fp64::dmul, fp64::ddiv] {
                let _ = f(x, y);
            }
            for &c in &edges {
                for f in TERNARY {
                    let _ = f(a, b, c);
                }
                let _ = bitwise::bfi(a, b, c, b);
                let _ = fp64::dma(x, y, fp64::join(c, a));
            }
        }
    }
}

#[test]
fn f16_conversions_agree_with_the_runtime_selected_path() {
    // Our software conversions against `half`'s default ones (F16C when available): every f16, and
    // f32 values around every f16 exponent including exact ties.
    for bits in 0..=0xFFFFu32 {
        let ours = fp16::f16_to_f32(bits);
        let theirs = half::f16::from_bits(bits as u16).to_f32();
        assert_eq!(ours.to_bits(), theirs.to_bits(), "{bits:#06x}");
    }
    let mut rng = Rng::new(5);
    for exponent in 90..=160u32 {
        for _ in 0..2_000 {
            let mantissa = rng.word() & 0x007F_FFFF;
            let tie = (mantissa & !0x1FFF) | 0x1000;
            for m in [mantissa, tie] {
                let value = f32::from_bits(((rng.word() & 1) << 31) | (exponent << 23) | m);
                assert_eq!(
                    fp16::f32_to_f16(value),
                    half::f16::from_f32(value).to_bits(),
                    "{:#x}",
                    value.to_bits()
                );
            }
        }
    }
    for special in [
        0x7F80_0000u32,
        0xFF80_0001,
        0x7FC0_1234,
        0x7FFF_FFFF,
        0x0000_0001,
    ] {
        let value = f32::from_bits(special);
        assert_eq!(
            fp16::f32_to_f16(value),
            half::f16::from_f32(value).to_bits()
        );
    }
}

/// The software fma used where there is no fma instruction must give the same bits as a true
/// fused multiply-add (`f32::mul_add`, which is exact on every host) — including inputs chosen to
/// land exactly between two f32 values after an f64 rounding, where a naive f64 emulation
/// double-rounds.
#[test]
fn software_fma_matches_fused_multiply_add() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u32
    };
    let edges = [
        0u32,
        0x8000_0000,
        0x3F80_0000,
        0xBF80_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x0000_0001,
        0x8000_0001,
        0x007F_FFFF,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x3F80_0001,
        0x3400_0000,
        0x3380_0000,
        0x4B80_0000,
    ];
    let mut checked = 0;
    let mut refused = 0;
    let mut check = |a: u32, b: u32, c: u32| {
        let expected = f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c));
        let got = f32::from_bits(super::float::fma_by_round_to_odd(a, b, c));
        assert!(
            got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan()),
            "fma({a:#x}, {b:#x}, {c:#x}): got {got:?} ({:#x}), expected {expected:?} ({:#x})",
            got.to_bits(),
            expected.to_bits()
        );
        // The twice-rounded fast path: right whenever it answers (a NaN is for `fma` to pick).
        match super::float::fma_twice_rounded(a, b, c).map(f32::from_bits) {
            Some(fast) if !fast.is_nan() => assert_eq!(
                fast.to_bits(),
                expected.to_bits(),
                "twice rounded fma({a:#x}, {b:#x}, {c:#x})"
            ),
            Some(_) => {}
            None => refused += 1,
        }
        checked += 1;
    };
    for &a in &edges {
        for &b in &edges {
            for &c in &edges {
                check(a, b, c);
            }
        }
    }
    // (1 + 2^-k)(1 + 2^-(24-k)) has a 2^-24 term: exactly halfway between two f32 values. An
    // addend below the f64 ulp decides the rounding and is lost by a plain f64 multiply-add.
    for k in 1..24 {
        for scale in [1.0f32, 0.5, 8.0, 1.0e-20, 3.0e12] {
            let a = (1.0 + (-(k as f32)).exp2()) * scale;
            let b = 1.0 + (-(24 - k) as f32).exp2();
            for tiny in [-60, -53, -54, -75, -100] {
                let c = (tiny as f32).exp2() * scale;
                check(a.to_bits(), b.to_bits(), c.to_bits());
                check(a.to_bits(), b.to_bits(), (-c).to_bits());
                check((-a).to_bits(), b.to_bits(), c.to_bits());
            }
        }
    }
    for _ in 0..200_000 {
        // Products near 1 plus tiny addends exercise the halfway cases.
        let a = 0x3F80_0000 | (next() & 0x007F_FFFF);
        let b = 0x3F80_0000 | (next() & 0x007F_FFFF);
        let c = (next() & 0x8000_0000) | (0x3000_0000 + (next() & 0x0FFF_FFFF));
        check(a, b, c);
        check(next(), next(), next());
    }
    assert!(checked > 400_000);
    // The halfway cases above are refused; random operands seldom are.
    assert!(
        refused > 100 && refused < checked / 20,
        "{refused} of {checked} refused"
    );
}

/// NaN selection in `fma` is fixed, whatever instruction the compiler emits (values observed on
/// wave-emu 0.1.2 by the differential tests).
#[test]
fn fma_propagates_the_same_nan_as_the_reference() {
    use super::float::fma;
    let one = 1.0f32.to_bits();
    assert_eq!(
        fma(0x7F80_0000, 0, 0x7FA0_0033),
        0x7FE0_0033,
        "NaN c wins over an invalid product"
    );
    assert_eq!(
        fma(0x7FC0_0011, 0x7FC0_0022, one),
        0x7FC0_0022,
        "b's NaN wins over a's"
    );
    assert_eq!(
        fma(0x7FC0_0011, one, 0x7FC0_0033),
        0x7FC0_0011,
        "a's NaN wins over c's"
    );
    assert_eq!(
        fma(0x7F80_0001, 0x7FC0_0000, one),
        0x7FC0_0000,
        "b's quiet NaN beats a's signalling one"
    );
    assert_eq!(
        fma(one, 0x7F80_0001, one),
        0x7FC0_0001,
        "a signalling NaN comes out quiet"
    );
    assert_eq!(
        fma(0x7F80_0000, 0, one),
        0xFFC0_0000,
        "inf * 0 gives the default NaN"
    );
    assert_eq!(fma(one, one, one), 2.0f32.to_bits());
}
