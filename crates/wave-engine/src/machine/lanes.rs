//! Lane loops: apply a per-lane function to the lanes of a mask. Operands are whole 64-lane rows
//! (a register's row, or an immediate splatted), so every loop has a constant trip count and no
//! bounds checks, and the compiler turns it into vector code: a plain loop when every lane is
//! active, compute-then-blend otherwise. Lanes outside the mask are never written (shuffles may
//! read them later, and must see what wave-emu would).

use super::cpu::Avx2Fma;
use super::lane_bits;
use super::wave::{lanes_mask, Wave};
use crate::instr::{flags, Instr};

pub(super) use super::wave::{Row, MAX_LANES};

/// Register `reg` across the wave's lanes, or the immediate splatted when `is_imm`.
#[inline(always)]
pub(super) fn operand(wave: &Wave, reg: u8, is_imm: bool, imm: u32) -> Row {
    if is_imm {
        Row::splat(imm)
    } else {
        wave.registers[reg as usize]
    }
}

#[inline(always)]
pub(super) fn src_a(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.a, instr.flags & flags::A_IMM != 0, instr.imm)
}

#[inline(always)]
pub(super) fn src_b(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.b, instr.flags & flags::B_IMM != 0, instr.imm)
}

#[inline(always)]
pub(super) fn src_c(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.c, instr.flags & flags::C_IMM != 0, instr.imm)
}

/// Writes `value(lane)` into register `dst` for the lanes in `mask`.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn write_masked(wave: &mut Wave, dst: u8, mask: u64, value: impl Fn(usize) -> u32) {
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
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn store_row(wave: &mut Wave, dst: u8, mask: u64, computed: &Row) {
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
            $splat = Row::splat($instr.imm);
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

#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn map1(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM])
}

#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn map2(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM, b: b: flags::B_IMM])
}

#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn map3(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32, u32) -> u32) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM, b: b: flags::B_IMM, c: c: flags::C_IMM])
}

#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn map4(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    f: impl Fn(u32, u32, u32, u32) -> u32,
) {
    lane_op!(wave, instr, mask, f, [a: a: flags::A_IMM, b: b: flags::B_IMM, c: c: flags::C_IMM, d: d: 0])
}

/// `fma` for every instruction of `run` (all `fma`) on each of `waves`, wave after wave: each
/// wave runs the whole run in order before the next wave starts. Register-only instructions of
/// different waves touch disjoint state, so this gives the results of any interleaving; the
/// callers advance the pcs. Each instruction acts on the lanes where the wave is active and its
/// guard holds. A single instruction on a group of waves is a run of one.
///
/// With `hardware` (x86-64 with AVX2 and FMA, detected once per machine) full 32- and 64-lane
/// waves take 8 lanes per `vfmadd`, the run's operands checked once, and only a NaN result sends
/// the instruction to the per-lane NaN rules. Otherwise (wasm, or a machine told to use its
/// portable loop) a vectorised pass in f64 computes the lanes it can vouch for and the per-lane
/// rules the few others ([`fma_rows_portable`]): the same bits either way.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn fma_run(waves: &mut [Wave], run: &[Instr], hardware: Option<Avx2Fma>) {
    #[cfg(target_arch = "x86_64")]
    if hardware.is_some() {
        // SAFETY: an `Avx2Fma` exists only on CPUs with AVX2 and FMA (`Avx2Fma::detect`).
        return unsafe { fma_run_hardware(waves, run) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = hardware;
    // In a browser that lends its fused multiply-add (see `fused_fma`), the run goes there.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if super::fused_fma::run_fused(waves, run, fma_portable) {
        return;
    }
    for wave in waves {
        for instr in run {
            fma_portable(wave, instr);
        }
    }
}

/// One `fma` on one wave by the portable path: one pass over the lanes with the operand rows
/// borrowed in place, on the lanes where the wave is active and the guard holds.
#[inline(always)]
fn fma_portable(wave: &mut Wave, instr: &Instr) {
    let mask = wave.active & super::control::guard_mask(wave, instr.guard);
    if !fma_rows_portable(wave, instr, mask) {
        fma_by_lane_rules(wave, instr, mask);
    }
}

/// `fma` on one wave without a fused multiply-add instruction: a vectorised pass of
/// [`float::fma_twice_rounded`](crate::numeric::float::fma_twice_rounded) over every lane, then
/// the exact per-lane [`float::fma`](crate::numeric::float::fma) for the few lanes it refused or
/// whose result is NaN. `false` (nothing stored) for immediate operands, which the caller's
/// per-lane rules read.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn fma_rows_portable(wave: &mut Wave, instr: &Instr, mask: u64) -> bool {
    use crate::numeric::float;
    #[inline(always)]
    fn lanes<const N: usize>(wave: &mut Wave, instr: &Instr, mask: u64) {
        let [a, b, c] = [instr.a, instr.b, instr.c].map(|r| &wave.registers[r as usize]);
        let mut results = [0u32; N];
        let mut settled = [true; N];
        let mut all_settled = true;
        for lane in 0..N {
            let result = float::fma_twice_rounded(a[lane], b[lane], c[lane]);
            let bits = result.unwrap_or(0);
            let ok = result.is_some() && bits & 0x7FFF_FFFF <= 0x7F80_0000;
            results[lane] = bits;
            settled[lane] = ok;
            all_settled &= ok;
        }
        if !all_settled {
            for lane in (0..N).filter(|&lane| !settled[lane]) {
                results[lane] = float::fma(a[lane], b[lane], c[lane]);
            }
        }
        store(wave, instr.dst, mask, &results);
    }
    if instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) != 0 {
        false
    } else {
        if wave.width <= 32 {
            lanes::<32>(wave, instr, mask);
        } else {
            lanes::<MAX_LANES>(wave, instr, mask);
        }
        true
    }
}

/// `fma` on one wave with wasm's 128-bit SIMD: the same bits as the other targets' portable pass,
/// in one pass that settles f32-midpoint sums in its vectors and hands only subnormal and NaN lanes
/// to the per-lane rules ([`super::fma_simd128`]). `false` (nothing stored) for immediate
/// operands, which the caller's per-lane rules read.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn fma_rows_portable(wave: &mut Wave, instr: &Instr, mask: u64) -> bool {
    use super::fma_simd128::fma_rows;
    // Every lane active: the lanes past the width are written too, as `store` writes them.
    let mask = if mask == lanes_mask(wave.width) {
        u64::MAX
    } else {
        mask
    };
    if instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) != 0 {
        false
    } else if wave.width <= 32 {
        fma_rows::<32>(&mut wave.registers, instr, mask)
    } else {
        fma_rows::<MAX_LANES>(&mut wave.registers, instr, mask)
    }
}

/// [`fma_run`] with the CPU's fused multiply-add. Callable only where the CPU has AVX2 and FMA
/// (its `target_feature`s): [`fma_run`] calls it when it holds an `Avx2Fma`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fma_run_hardware(waves: &mut [Wave], run: &[Instr]) {
    // Settled once for the run: register operands, no guard, every register inside the file (the
    // waves of a workgroup have the same register count).
    let registers = waves.first().map_or(0, |wave| wave.registers.len());
    let plain = run.iter().all(|instr| {
        let highest = instr.a.max(instr.b).max(instr.c).max(instr.dst) as usize;
        instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) == 0
            && instr.guard == crate::instr::Guard::Always
            && highest < registers
    });
    for wave in waves {
        // The common case: a full 32- or 64-lane wave.
        let vectors = match (wave.width, wave.active) {
            _ if !plain || wave.registers.len() != registers => 0,
            (32, 0xFFFF_FFFF) => 4,
            (64, u64::MAX) => 8,
            _ => 0,
        };
        for instr in run {
            let done = match vectors {
                // SAFETY: this function runs only where the CPU has AVX2 and FMA (its own
                // `target_feature`, which its one caller vouches for with an `Avx2Fma`), and
                // `vectors` is nonzero only when every operand and destination register is below
                // this wave's register count (`plain`, and the count compared just above).
                4 => unsafe { fma_full_rows_avx2::<4>(&mut wave.registers, instr) },
                // SAFETY: as for four vectors.
                8 => unsafe { fma_full_rows_avx2::<8>(&mut wave.registers, instr) },
                _ => false,
            };
            if !done {
                fma_wave_hardware(wave, instr);
            }
        }
    }
}

/// `fma` on one wave that is not a plain full one, or whose result has a NaN lane: one pass with
/// the hardware's `fma`, then the per-lane rules if a lane came out NaN. Out of line, so the
/// loop over full waves above keeps its state in registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline(never)]
fn fma_wave_hardware(wave: &mut Wave, instr: &Instr) {
    let hardware_fma = |a: u32, b: u32, c: u32| {
        let [a, b, c] = [a, b, c].map(f32::from_bits);
        a.mul_add(b, c).to_bits()
    };
    let mask = wave.active & super::control::guard_mask(wave, instr.guard);
    if !fma_rows_without_nan(wave, instr, mask, hardware_fma) {
        fma_by_lane_rules(wave, instr, mask);
    }
}

/// `fma` on the first `8 * VECTORS` lanes of a wave whose lanes are all active, eight lanes per
/// `vfmadd`: every operand is read before the destination is written (it may be an operand), and
/// nothing is written when a result is NaN (`false`: the per-lane rules decide which NaN). A fused
/// multiply-add rounds once, as `f32::mul_add` does, so the bits are the portable path's.
///
/// # Safety
/// The CPU has AVX2 and FMA; `instr.a`, `b`, `c` and `dst` are below `registers.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[inline]
unsafe fn fma_full_rows_avx2<const VECTORS: usize>(registers: &mut [Row], instr: &Instr) -> bool {
    use std::arch::x86_64::*;
    let rows = registers.as_mut_ptr();
    // SAFETY: the four rows exist (the caller's promise); `8 * VECTORS <= MAX_LANES` lanes of each.
    let row = |r: u8| unsafe { rows.add(r as usize) as *mut f32 };
    let (a, b, c) = (row(instr.a), row(instr.b), row(instr.c));
    let mut results = [_mm256_setzero_ps(); VECTORS];
    let mut nan = _mm256_setzero_ps();
    for (i, result) in results.iter_mut().enumerate() {
        let lanes = 8 * i;
        // SAFETY: as above.
        let [a, b, c] = [a, b, c].map(|row| unsafe { _mm256_loadu_ps(row.add(lanes)) });
        *result = _mm256_fmadd_ps(a, b, c);
        nan = _mm256_or_ps(nan, _mm256_cmp_ps::<_CMP_UNORD_Q>(*result, *result));
    }
    if _mm256_movemask_ps(nan) != 0 {
        return false;
    }
    let dst = row(instr.dst);
    for (i, result) in results.iter().enumerate() {
        // SAFETY: as above.
        unsafe { _mm256_storeu_ps(dst.add(8 * i), *result) };
    }
    true
}

/// The rare path (a NaN result, or an immediate operand): the exact per-lane rules, kept out of
/// line so the hot loops above stay small.
#[cold]
#[inline(never)]
fn fma_by_lane_rules(wave: &mut Wave, instr: &Instr, mask: u64) {
    map3(wave, instr, mask, crate::numeric::float::fma)
}

/// One pass over the lanes computing `a * b + c` with `lane_fma` (single rounding). A NaN result
/// lane means a NaN input or an invalid product (∞ × 0); then nothing is stored and `false` asks
/// for the per-lane rules of [`crate::numeric::float::fma`] (which NaN comes out). Otherwise the
/// results are stored. Operands given as immediates also answer `false`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fma_rows_without_nan(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    lane_fma: impl Fn(u32, u32, u32) -> u32,
) -> bool {
    #[inline(always)]
    fn lanes<const N: usize>(
        wave: &mut Wave,
        instr: &Instr,
        mask: u64,
        lane_fma: impl Fn(u32, u32, u32) -> u32,
    ) -> bool {
        let [a, b, c] = [instr.a, instr.b, instr.c].map(|r| &wave.registers[r as usize]);
        let mut results = [0u32; N];
        let mut any_nan = false;
        for (lane, result) in results.iter_mut().enumerate() {
            let bits = lane_fma(a[lane], b[lane], c[lane]);
            any_nan |= bits & 0x7FFF_FFFF > 0x7F80_0000;
            *result = bits;
        }
        if !any_nan {
            store(wave, instr.dst, mask, &results);
        }
        !any_nan
    }
    if instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) != 0 {
        false
    } else if wave.width <= 32 {
        lanes::<32>(wave, instr, mask, lane_fma)
    } else {
        lanes::<MAX_LANES>(wave, instr, mask, lane_fma)
    }
}

/// Sets predicate `p` to `test(lane)` on the lanes in `mask`, leaving the others unchanged.
#[inline(always)]
pub(super) fn set_predicate(wave: &mut Wave, p: u8, mask: u64, test: impl Fn(usize) -> bool) {
    let bits = lane_flags(wave.width, test);
    let slot = &mut wave.predicates[p as usize & 3];
    *slot = (*slot & !mask) | (bits & mask);
}

/// A compare into predicate `dst` on the lanes of `mask`. Lanes beyond the width are computed
/// too (a constant trip count vectorises) but masked off.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn compare(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32) -> bool) {
    let a;
    let a: &Row = source_row!(wave, instr, a, flags::A_IMM, a);
    let b;
    let b: &Row = source_row!(wave, instr, b, flags::B_IMM, b);
    let bits = lane_flags(wave.width, |lane| f(a[lane], b[lane]));
    let slot = &mut wave.predicates[instr.dst as usize & 3];
    *slot = (*slot & !mask) | (bits & mask);
}

/// `test` of the lanes of a wave `width` wide as a lane mask. Lanes up to 32 (or 64) are
/// tested, a constant count that vectorises; the caller masks off those beyond the width.
#[inline(always)]
fn lane_flags(width: u32, test: impl Fn(usize) -> bool) -> u64 {
    if width <= 32 {
        flag_bits::<32>(test)
    } else {
        flag_bits::<MAX_LANES>(test)
    }
}

/// `test` of lanes `0..N` as a lane mask: one flag word per lane first (vector compares), then
/// packed (see `lane_bits`).
#[inline(always)]
fn flag_bits<const N: usize>(test: impl Fn(usize) -> bool) -> u64 {
    let mut flags = [0u32; N];
    for (lane, flag) in flags.iter_mut().enumerate() {
        *flag = if test(lane) { u32::MAX } else { 0 };
    }
    lane_bits::pack(&flags)
}

/// A register pair (`r`, `r + 1`) of one lane as a u64, low word first.
#[inline(always)]
pub(super) fn pair(wave: &Wave, r: u8, lane: usize) -> u64 {
    let low = wave.register(r, lane as u32);
    let high = wave.register(r.wrapping_add(1), lane as u32);
    crate::numeric::fp64::join(low, high)
}

#[inline(always)]
pub(super) fn set_pair(wave: &mut Wave, r: u8, lane: usize, value: u64) {
    let (low, high) = crate::numeric::fp64::split(value);
    wave.set_register(r, lane as u32, low);
    wave.set_register(r.wrapping_add(1), lane as u32, high);
}

/// Iterates the set bits of a mask, lowest first.
#[inline(always)]
pub(super) fn each_lane(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let lane = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(lane)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instr::{Guard, Op};
    use crate::numeric::float;

    /// A run of `fma`s on full waves of 32 and 64 lanes (the whole-row AVX2 path where the CPU
    /// has it, with a NaN lane and a guarded instruction among them, which go per lane) gives
    /// the per-lane rules' bits on both paths.
    #[test]
    fn fma_runs_on_full_waves_match_the_per_lane_rules_on_both_paths() {
        let run = [
            Instr {
                dst: 4,
                a: 1,
                b: 2,
                c: 3,
                ..Instr::new(Op::Fma)
            },
            // The destination as an operand: every operand is read before the store.
            Instr {
                dst: 1,
                a: 1,
                b: 4,
                c: 2,
                ..Instr::new(Op::Fma)
            },
            Instr {
                guard: Guard::when(1),
                dst: 3,
                a: 4,
                b: 4,
                c: 1,
                ..Instr::new(Op::Fma)
            },
        ];
        for width in [32u32, 64] {
            let mut waves: Vec<Wave> = (0..2)
                .map(|id| Wave::new(id, width, 2 * width, 6))
                .collect();
            for (id, wave) in waves.iter_mut().enumerate() {
                for lane in 0..width {
                    let x = (lane as f32 + 1.0) * if id == 0 { 0.75 } else { -1.25 };
                    wave.set_register(1, lane, x.to_bits());
                    wave.set_register(2, lane, (1.0 / x).to_bits());
                    wave.set_register(3, lane, (x * x).to_bits());
                }
                wave.predicates[1] = 0x5555_5555_5555_5555;
            }
            // One NaN lane on the second wave: that wave's instruction takes the per-lane rules.
            waves[1].set_register(2, 7, 0x7FC0_0001);
            let mut expected = waves.clone();
            for wave in &mut expected {
                for instr in &run {
                    let mask = wave.active & super::super::control::guard_mask(wave, instr.guard);
                    map3(wave, instr, mask, float::fma);
                }
            }
            for hardware in [None, Avx2Fma::detect()] {
                let mut ran = waves.clone();
                fma_run(&mut ran, &run, hardware);
                assert_eq!(
                    ran,
                    expected,
                    "width {width}, hardware {}",
                    hardware.is_some()
                );
            }
        }
    }

    /// The software lane loop (what wasm runs) against the per-lane reference rules, on lanes
    /// mixing plain values, a double-rounding midpoint case, a NaN input and ∞ × 0.
    #[test]
    fn software_fma_rows_match_the_per_lane_rules() {
        let lanes: [[u32; 3]; 6] = [
            [0x3FC0_0000, 0x4020_0000, 0x3F00_0000],
            [0x3F80_0800, 0x3F80_0800, 0xBF80_1000],
            [0x3F80_0001, 0x3F80_0001, 0x2800_0000],
            [0x0000_0001, 0x3F00_0000, 0x0000_0000],
            [0x7FA0_0001, 0x4000_0000, 0x7FC0_0002],
            [0x7F80_0000, 0x0000_0000, 0x3F80_0000],
        ];
        let instr = Instr {
            op: Op::Fma,
            guard: Guard::default(),
            flags: 0,
            dst: 4,
            a: 1,
            b: 2,
            c: 3,
            d: 0,
            imm: 0,
            target: 0,
        };
        // On x86-64 the hardware path keeps this single-pass helper; there the round-to-odd
        // software stores without the NaN lanes and asks for the per-lane rules with them.
        #[cfg(target_arch = "x86_64")]
        for (count, expect_single_pass) in [(4, true), (6, false)] {
            let mut wave = Wave::new(0, count as u32, count as u32, 8);
            for (lane, operands) in lanes.iter().take(count).enumerate() {
                for (register, &bits) in [1u8, 2, 3].iter().zip(operands) {
                    wave.set_register(*register, lane as u32, bits);
                }
            }
            let mask = lanes_mask(count as u32);
            let single_pass =
                fma_rows_without_nan(&mut wave, &instr, mask, float::fma_by_round_to_odd);
            assert_eq!(single_pass, expect_single_pass);
            if !single_pass {
                map3(&mut wave, &instr, mask, float::fma);
            }
            for (lane, [a, b, c]) in lanes.iter().take(count).enumerate() {
                assert_eq!(
                    wave.register(4, lane as u32),
                    float::fma(*a, *b, *c),
                    "lane {lane}"
                );
            }
        }
        // The portable pass (every target without the hardware path): the same bits on every
        // lane, the NaN lanes and those rounding twice would spoil included. The (1 + 2^-k) ×
        // (1 + 2^-(24-k)) + tiny lanes land on an f32 midpoint in f64, which the twice-rounded
        // pass must hand to the exact rules.
        let mut operands: Vec<[u32; 3]> = lanes.to_vec();
        for k in 1..24 {
            let a = 1.0 + (-(k as f32)).exp2();
            let b = 1.0 + (-(24 - k) as f32).exp2();
            for tiny in [-60, -75] {
                let c = (tiny as f32).exp2();
                operands.push([a.to_bits(), b.to_bits(), c.to_bits()]);
                operands.push([a.to_bits(), b.to_bits(), (-c).to_bits()]);
            }
        }
        operands.push([0x0080_0001, 0x3F00_0000, 0x0000_0000]);
        for chunk in operands.chunks(32) {
            let width = chunk.len() as u32;
            let mut wave = Wave::new(0, width, width, 8);
            for (lane, lane_operands) in chunk.iter().enumerate() {
                for (register, &bits) in [1u8, 2, 3].iter().zip(lane_operands) {
                    wave.set_register(*register, lane as u32, bits);
                }
            }
            assert!(fma_rows_portable(&mut wave, &instr, lanes_mask(width)));
            for (lane, [a, b, c]) in chunk.iter().enumerate() {
                assert_eq!(
                    wave.register(4, lane as u32),
                    float::fma(*a, *b, *c),
                    "fma({a:#x}, {b:#x}, {c:#x})"
                );
            }
        }
    }
}
