//! Lane loops: apply a per-lane function to the lanes of a mask. Operands are whole 64-lane rows
//! (a register's row, or an immediate splatted), so every loop has a constant trip count and no
//! bounds checks, and the compiler turns it into vector code: a plain loop when every lane is
//! active, compute-then-blend otherwise. Lanes outside the mask are never written (shuffles may
//! read them later, and must see what wave-emu would).

use super::wave::{lanes_mask, Wave};
use crate::instr::{flags, Instr};

pub use super::wave::{Row, MAX_LANES};

/// Register `reg` across the wave's lanes, or the immediate splatted when `is_imm`.
#[inline(always)]
pub fn operand(wave: &Wave, reg: u8, is_imm: bool, imm: u32) -> Row {
    if is_imm {
        [imm; MAX_LANES]
    } else {
        wave.registers[reg as usize]
    }
}

#[inline(always)]
pub fn src_a(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.a, instr.flags & flags::A_IMM != 0, instr.imm)
}

#[inline(always)]
pub fn src_b(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.b, instr.flags & flags::B_IMM != 0, instr.imm)
}

#[inline(always)]
pub fn src_c(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.c, instr.flags & flags::C_IMM != 0, instr.imm)
}

/// Writes `value(lane)` into register `dst` for the lanes in `mask`.
#[inline(always)]
pub fn write_masked(wave: &mut Wave, dst: u8, mask: u64, value: impl Fn(usize) -> u32) {
    if wave.width <= 32 {
        let computed = compute::<32>(value);
        store(wave, dst, mask, &computed);
    } else {
        let computed = compute::<MAX_LANES>(value);
        store(wave, dst, mask, &computed);
    }
}

/// `N` lanes computed into a stack array: a constant trip count the compiler vectorises.
#[inline(always)]
fn compute<const N: usize>(value: impl Fn(usize) -> u32) -> [u32; N] {
    let mut computed = [0u32; N];
    for (lane, slot) in computed.iter_mut().enumerate() {
        *slot = value(lane);
    }
    computed
}

/// Copies computed lanes into `dst` (every lane active: lanes beyond the width do not exist) or
/// blends them by `mask`.
#[inline(always)]
fn store<const N: usize>(wave: &mut Wave, dst: u8, mask: u64, computed: &[u32; N]) {
    let full = mask == lanes_mask(wave.width);
    let row = &mut wave.registers[dst as usize];
    if full {
        row[..N].copy_from_slice(computed);
    } else {
        for (lane, (slot, new)) in row.iter_mut().zip(computed).enumerate() {
            *slot = if mask >> lane & 1 != 0 { *new } else { *slot };
        }
    }
}

/// Stores the lanes of `mask` from a full row of computed values (only the wave's width of it is
/// looked at).
#[inline(always)]
pub fn store_row(wave: &mut Wave, dst: u8, mask: u64, computed: &Row) {
    if wave.width <= 32 {
        let mut head = [0u32; 32];
        head.copy_from_slice(&computed[..32]);
        store(wave, dst, mask, &head);
    } else {
        store(wave, dst, mask, computed);
    }
}

/// Borrows a source row in place, or splats an immediate into `splat`.
macro_rules! source_row {
    ($wave:ident, $instr:ident, $field:ident, $flag:expr, $splat:ident) => {
        if $instr.flags & $flag != 0 {
            $splat = [$instr.imm; MAX_LANES];
            &$splat
        } else {
            &$wave.registers[$instr.$field as usize]
        }
    };
}

/// Computes from borrowed rows, then stores: no operand row is copied.
macro_rules! lane_op {
    ($wave:ident, $instr:ident, $mask:ident, $f:ident, [$($src:ident : $field:ident : $flag:expr),+]) => {{
        $(let $src; let $src: &Row = source_row!($wave, $instr, $field, $flag, $src);)+
        if $wave.width <= 32 {
            let computed = compute::<32>(|l| $f($($src[l]),+));
            store($wave, $instr.dst, $mask, &computed);
        } else {
            let computed = compute::<MAX_LANES>(|l| $f($($src[l]),+));
            store($wave, $instr.dst, $mask, &computed);
        }
    }};
}

#[inline(always)]
pub fn map1(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM])
}

#[inline(always)]
pub fn map2(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM, b: b: flags::B_IMM])
}

#[inline(always)]
pub fn map3(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32, u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM, b: b: flags::B_IMM, c: c: flags::C_IMM])
}

#[inline(always)]
pub fn map4(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32, u32, u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM, b: b: flags::B_IMM, c: c: flags::C_IMM, d: d: 0])
}

/// `fma` over the lanes: on x86-64 CPUs with the fma instruction, the lane loop is compiled for
/// it (8 lanes per `vfmadd`); elsewhere the portable single-rounding version runs.
#[inline(always)]
pub fn fma(wave: &mut Wave, instr: &Instr, mask: u64) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports every feature `fma_hardware` is compiled for (checked above).
        return unsafe { fma_hardware(wave, instr, mask) };
    }
    map3(wave, instr, mask, crate::numeric::float::fma)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fma_hardware(wave: &mut Wave, instr: &Instr, mask: u64) {
    use crate::numeric::float::fma_fused;
    const IMMEDIATES: u8 = flags::A_IMM | flags::B_IMM | flags::C_IMM;
    if instr.flags & IMMEDIATES == 0 {
        let done = if wave.width <= 32 {
            fma_rows_without_nan::<32>(wave, instr, mask)
        } else {
            fma_rows_without_nan::<MAX_LANES>(wave, instr, mask)
        };
        if done {
            return;
        }
    }
    map3(wave, instr, mask, fma_fused)
}

/// One vectorised pass over `N` lanes computing `a * b + c` with one rounding. A NaN result
/// lane means a NaN input or an invalid product (∞ × 0): then nothing is stored and `false` asks
/// for the per-lane rules of [`crate::numeric::float::fma_fused`] (which NaN comes out). Without
/// one, the hardware results are exactly the fused results and are stored.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fma_rows_without_nan<const N: usize>(wave: &mut Wave, instr: &Instr, mask: u64) -> bool {
    let [a, b, c] = [instr.a, instr.b, instr.c].map(|r| &wave.registers[r as usize]);
    let mut results = [0u32; N];
    let mut any_nan = false;
    for lane in 0..N {
        let product_sum =
            f32::from_bits(a[lane]).mul_add(f32::from_bits(b[lane]), f32::from_bits(c[lane]));
        any_nan |= product_sum.is_nan();
        results[lane] = product_sum.to_bits();
    }
    if any_nan {
        return false;
    }
    store(wave, instr.dst, mask, &results);
    true
}

/// Sets predicate `p` to `test(lane)` on the lanes in `mask`, leaving the others unchanged.
#[inline(always)]
pub fn set_predicate(wave: &mut Wave, p: u8, mask: u64, test: impl Fn(usize) -> bool) {
    let mut bits = 0u64;
    for lane in 0..MAX_LANES {
        bits |= (test(lane) as u64) << lane;
    }
    let slot = &mut wave.predicates[p as usize & 3];
    *slot = (*slot & !mask) | (bits & mask);
}

#[inline(always)]
pub fn compare(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32) -> bool) {
    let a;
    let a: &Row = source_row!(wave, instr, a, flags::A_IMM, a);
    let b;
    let b: &Row = source_row!(wave, instr, b, flags::B_IMM, b);
    let lanes = if wave.width <= 32 { 32 } else { MAX_LANES };
    let mut bits = 0u64;
    for lane in 0..lanes {
        bits |= (f(a[lane], b[lane]) as u64) << lane;
    }
    let slot = &mut wave.predicates[instr.dst as usize & 3];
    *slot = (*slot & !mask) | (bits & mask);
}

/// A register pair (`r`, `r + 1`) of one lane as a u64, low word first.
#[inline(always)]
pub fn pair(wave: &Wave, r: u8, lane: usize) -> u64 {
    let lo = wave.register(r, lane as u32) as u64;
    let hi = wave.register(r.wrapping_add(1), lane as u32) as u64;
    lo | hi << 32
}

#[inline(always)]
pub fn set_pair(wave: &mut Wave, r: u8, lane: usize, value: u64) {
    wave.set_register(r, lane as u32, value as u32);
    wave.set_register(r.wrapping_add(1), lane as u32, (value >> 32) as u32);
}

/// Iterates the set bits of a mask, lowest first.
#[inline(always)]
pub fn each_lane(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let lane = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(lane)
    })
}
