//! Runs of `fma` in wasm with a fused multiply-add from outside the engine: the browser's, where
//! it has one. Wasm has no fused multiply-add; its relaxed SIMD has `f32x4.relaxed_madd`, which a
//! browser compiles to the CPU's fused multiply-add where the CPU has one, but the engine cannot
//! use it itself (a browser without relaxed SIMD would reject the whole module). So the page offers
//! a function from a small module of its own ([`offer_fused_run`]); the engine tests it, and uses
//! it for the runs of `fma` that lockstep hands over, a run per wave per call. Without one, or
//! where it rounds twice, `fma` is the engine's own pass in f64 (`fma_simd128`): the same bits.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::wave::{lanes_mask, Row, Wave, MAX_LANES};
use crate::instr::{flags, Guard, Instr};
use crate::numeric::float;

/// A run of `fma` on one wave's register file, rounded once, from outside the engine.
///
/// `registers` points at the wave's rows of [`MAX_LANES`] lanes, one after another; `run` at
/// `count` instructions, each a u32 with the register numbers a, b, c and dst in its bytes, low to
/// high. Instruction after instruction, `dst = a * b + c` on the lanes below `lanes` (32 or 64)
/// that have their bit in `mask`. An instruction with a NaN result on such a lane stops the run in
/// its group of four lanes, before anything of that group is written: the return value is then
/// `(instruction << 8) | first lane of the group`, the lanes before that group being done;
/// otherwise `count << 8`. Reads and writes nothing but those rows.
pub type FusedRun = unsafe extern "C" fn(
    registers: *mut u32,
    run: *const u32,
    count: u32,
    mask: u64,
    lanes: u32,
) -> u32;

/// The offered [`FusedRun`] that passed its test, as an address (0: none).
static FUSED_RUN: AtomicUsize = AtomicUsize::new(0);

#[cfg_attr(
    not(all(target_arch = "wasm32", target_feature = "simd128")),
    allow(dead_code)
)]
fn fused_run() -> Option<FusedRun> {
    match FUSED_RUN.load(Ordering::Relaxed) {
        0 => None,
        // SAFETY: only `offer_fused_run` stores here, the address of a `FusedRun`.
        address => Some(unsafe { std::mem::transmute::<usize, FusedRun>(address) }),
    }
}

/// Offers every machine a fused multiply-add from outside the engine. It is tested first, on a
/// run where rounding once and twice differ, with chains, destinations that are operands,
/// zeros, subnormals, cancellation, infinities, NaNs and partial masks, against [`float::fma`]
/// lane by lane; it is used only if every result agrees (a browser may compile it as a multiply
/// and an add). Returns whether it is used.
///
/// # Safety
/// `run` behaves as [`FusedRun`] says: it touches no memory but the rows it is given.
pub unsafe fn offer_fused_run(run: FusedRun) -> bool {
    // Each mask on 64 lanes, and a full wave of 32 (which a module may run differently).
    let agrees = [u64::MAX, 0x0FF0_FFFF_5A5A_FFFF, 0x0000_0000_FFFF_0FF0]
        .into_iter()
        .all(|mask| probe_agrees(run, mask, 64))
        && probe_agrees(run, u64::MAX, 32);
    if agrees {
        FUSED_RUN.store(run as usize, Ordering::Relaxed);
    }
    agrees
}

/// Whether `fused` gives the per-lane rules' results on the probe's run with `mask` on the lanes
/// below `lanes` (32 or 64).
fn probe_agrees(fused: FusedRun, mask: u64, lanes: u32) -> bool {
    let (mut expected, run) = probe();
    let mut got = expected.clone();
    for instr in &run {
        exact_lanes(&mut expected, instr, mask, lanes as usize);
    }
    let packed: Vec<u32> = run.iter().map(pack).collect();
    run_on_rows(fused, &mut got, &run, &packed, mask, lanes);
    got == expected
}

/// The probe's register file and run. Lanes below 32 hold finite values, where rounding once and
/// twice differ, subnormals and cancellation, and never meet a NaN, so that a run stopped by one
/// (lanes 32 and up: infinities, NaNs, zeros) still leaves them to the function on test.
fn probe() -> (Vec<Row>, Vec<Instr>) {
    let bits = f32::to_bits;
    // (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 rounded once and 0 rounded twice.
    let near_one = |k: f32| bits(1.0 + k / 4096.0);
    let row = |finite: [u32; 8], special: [u32; 8]| -> Row {
        Row(std::array::from_fn(|lane| {
            if lane < 32 {
                finite[lane % 8]
            } else {
                special[lane % 8]
            }
        }))
    };
    let (inf, nan) = (0x7F80_0000, 0x7FC0_0001);
    let registers = vec![
        row(
            [
                near_one(1.0),
                bits(1.0e-20),
                bits(3.0),
                bits(-1.5e-30),
                bits(1.5),
                near_one(3.0),
                bits(0.1),
                near_one(-1.0),
            ],
            [
                inf,
                0,
                nan,
                0xFF80_0000,
                bits(f32::MAX),
                0x8000_0000,
                bits(1.0),
                0x7FA0_0001,
            ],
        ),
        row(
            [
                near_one(1.0),
                bits(1.0e-20),
                bits(1.0 / 3.0),
                bits(2.5e-10),
                bits(-0.75),
                near_one(3.0),
                bits(10.0),
                near_one(1.0),
            ],
            [
                0,
                0x8000_0000,
                bits(1.0),
                inf,
                bits(f32::MAX),
                inf,
                nan,
                bits(1.0),
            ],
        ),
        row(
            [
                near_one(-2.0 * 4096.0 - 2.0),
                1,
                bits(-1.0),
                5,
                bits(1.0 / 3.0),
                near_one(-4096.0 * 2.0 - 6.0),
                bits(-1.0),
                near_one(2.0),
            ],
            [
                bits(1.0),
                0,
                bits(2.0),
                inf,
                0xFF80_0000,
                bits(1.0),
                0,
                0x8000_0000,
            ],
        ),
        row(
            [
                bits(0.1),
                bits(-0.1),
                bits(1.0e30),
                0x8000_0001,
                bits(7.0),
                0x0080_0000,
                bits(-2.0),
                bits(0.5),
            ],
            [
                0xFF80_0000,
                nan,
                0,
                bits(1.0),
                inf,
                0x8000_0000,
                bits(-1.0),
                bits(2.0),
            ],
        ),
        row([0; 8], [0; 8]),
        row([0; 8], [0; 8]),
    ];
    let fma = |dst: u8, a: u8, b: u8, c: u8| Instr {
        dst,
        a,
        b,
        c,
        ..Instr::new(crate::instr::Op::Fma)
    };
    // A plain one, a chain on its result, destinations that are operands.
    let run = vec![
        fma(4, 0, 1, 2),
        fma(5, 4, 4, 3),
        fma(2, 2, 0, 2),
        fma(0, 0, 3, 4),
        fma(5, 1, 5, 0),
    ];
    (registers, run)
}

/// Runs `run` (all `fma`) on `waves` with the offered fused run: `false`, nothing done, when there
/// is none. Instructions it cannot take (an immediate operand, a guard, a register outside the
/// file) go to `one_by_one`, in their place in the run. (Only wasm's run loop asks; elsewhere the
/// module is compiled for its tests.)
#[cfg_attr(
    not(all(target_arch = "wasm32", target_feature = "simd128")),
    allow(dead_code)
)]
pub(super) fn run_fused(
    waves: &mut [Wave],
    run: &[Instr],
    mut one_by_one: impl FnMut(&mut Wave, &Instr),
) -> bool {
    let Some(fused) = fused_run() else {
        return false;
    };
    // The waves of a workgroup have one register count; the smallest serves for all.
    let registers = waves.iter().map(|wave| wave.registers.len()).min();
    let takes = |instr: &Instr| registers.is_some_and(|registers| plain(instr, registers));
    let mut rest = run;
    while let Some(first) = rest.first() {
        if !takes(first) {
            for wave in waves.iter_mut() {
                one_by_one(wave, first);
            }
            rest = &rest[1..];
            continue;
        }
        let piece = rest
            .iter()
            .take(64)
            .take_while(|instr| takes(instr))
            .count();
        let (now, later) = rest.split_at(piece);
        let mut packed = [0u32; 64];
        for (slot, instr) in packed.iter_mut().zip(now) {
            *slot = pack(instr);
        }
        for wave in waves.iter_mut() {
            let mask = if wave.active == lanes_mask(wave.width) {
                u64::MAX
            } else {
                wave.active
            };
            let lanes = if wave.width <= 32 { 32 } else { 64 };
            run_on_rows(
                fused,
                &mut wave.registers,
                now,
                &packed[..piece],
                mask,
                lanes,
            );
        }
        rest = later;
    }
    true
}

/// Whether the fused run can take `instr` on waves of `registers` registers: register operands,
/// no guard, every register inside the file.
fn plain(instr: &Instr, registers: usize) -> bool {
    let highest = instr.a.max(instr.b).max(instr.c).max(instr.dst) as usize;
    instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) == 0
        && instr.guard == Guard::Always
        && highest < registers
}

/// The register numbers of a plain `fma`, a, b, c and dst from the low byte up.
fn pack(instr: &Instr) -> u32 {
    u32::from_le_bytes([instr.a, instr.b, instr.c, instr.dst])
}

/// `run` (every instruction plain for `rows`, `packed` its packing) on one wave's rows with
/// `fused`; a lane group that stopped it is finished by the per-lane rules, and the run goes on
/// after that instruction.
fn run_on_rows(
    fused: FusedRun,
    rows: &mut [Row],
    run: &[Instr],
    packed: &[u32],
    mask: u64,
    lanes: u32,
) {
    let mut start = 0;
    while start < run.len() {
        // SAFETY: every register of the run is inside `rows` (plain), whose rows lie one after
        // another, `MAX_LANES` lanes each; `fused` touches only those ([`FusedRun`], vouched for
        // by whoever offered it).
        let stop = unsafe {
            fused(
                rows.as_mut_ptr().cast(),
                packed[start..].as_ptr(),
                (run.len() - start) as u32,
                mask,
                lanes,
            )
        };
        let stopped_at = start + (stop >> 8) as usize;
        let Some(instr) = run.get(stopped_at) else {
            break;
        };
        let first_lane = stop & 0xFF;
        exact_lanes(rows, instr, mask & (u64::MAX << first_lane), lanes as usize);
        start = stopped_at + 1;
    }
}

/// `acc[j] = a × b[j] + acc[j]`, each rounded once, for the `acc.len()` little-endian f32 values
/// of `b` (a row of a matrix in memory; bytes past them are ignored): with the offered
/// [`FusedRun`] where one was taken, else [`float::fma_row_by_round_to_odd`]. The same bits either
/// way but for which NaN a NaN lane holds. The page's GEMM check spends 134 million of these on
/// a 512 × 512 result: through the browser's fused multiply-add, several times faster than in f64.
pub fn fused_fma_row(acc: &mut [f32], a: f32, b: &[u8]) {
    match fused_run() {
        Some(fused) => fma_row_with(fused, acc, a, b),
        None => float::fma_row_by_round_to_odd(acc, a, b),
    }
}

/// [`fused_fma_row`] through `fused`: 64 values a call, as one `fma r2, r0, r1, r2` on a wave
/// whose register 0 is `a` on every lane, register 1 the values of `b` and register 2 those of
/// `acc`. A lane group that meets a NaN is finished by the per-lane rules ([`run_on_rows`]).
fn fma_row_with(fused: FusedRun, acc: &mut [f32], a: f32, b: &[u8]) {
    let instr = Instr {
        dst: 2,
        a: 0,
        b: 1,
        c: 2,
        ..Instr::new(crate::instr::Op::Fma)
    };
    let packed = [pack(&instr)];
    let mut rows: [Row; 3] = [Row::splat(a.to_bits()), Row::splat(0), Row::splat(0)];
    for (acc, b) in acc.chunks_mut(MAX_LANES).zip(b.chunks(4 * MAX_LANES)) {
        let lanes = acc.len().min(b.len() / 4);
        for (lane, value) in rows[1].iter_mut().zip(b.chunks_exact(4)) {
            *lane = u32::from_le_bytes([value[0], value[1], value[2], value[3]]);
        }
        for (lane, value) in rows[2].iter_mut().zip(acc.iter()) {
            *lane = value.to_bits();
        }
        let mask = lanes_mask(lanes as u32);
        run_on_rows(fused, &mut rows, &[instr], &packed, mask, MAX_LANES as u32);
        for (value, lane) in acc[..lanes].iter_mut().zip(rows[2].iter()) {
            *value = f32::from_bits(*lane);
        }
    }
}

/// `instr` by the per-lane rules on the lanes below `lanes` in `mask`.
fn exact_lanes(rows: &mut [Row], instr: &Instr, mask: u64, lanes: usize) {
    let [a, b, c, dst] = [instr.a, instr.b, instr.c, instr.dst].map(usize::from);
    for lane in (0..lanes).filter(|lane| mask >> lane & 1 != 0) {
        rows[dst][lane] = float::fma(rows[a][lane], rows[b][lane], rows[c][lane]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A [`FusedRun`] in software: `f32::mul_add` (one rounding), or `mul + add` (two) when
    /// `ROUNDS_TWICE`, and a mask honoured unless `IGNORES_MASK`.
    unsafe extern "C" fn software<const ROUNDS_TWICE: bool, const IGNORES_MASK: bool>(
        registers: *mut u32,
        run: *const u32,
        count: u32,
        mask: u64,
        lanes: u32,
    ) -> u32 {
        for index in 0..count {
            // SAFETY: as `FusedRun` promises its caller, `run` holds `count` instructions and
            // `registers` every row they name.
            let [a, b, c, dst] = unsafe { *run.add(index as usize) }.to_le_bytes();
            // SAFETY: as above: every row the instruction names is one of `registers`' rows, and
            // a lane is below `MAX_LANES`.
            let lane_at = |row: u8, lane: u32| unsafe {
                registers.add(row as usize * MAX_LANES + lane as usize)
            };
            for group in (0..lanes).step_by(4) {
                let chosen: Vec<u32> = (group..group + 4)
                    .filter(|&lane| IGNORES_MASK || mask >> lane & 1 != 0)
                    .collect();
                let results: Vec<u32> = chosen
                    .iter()
                    .map(|&lane| {
                        // SAFETY: `lane_at` points inside `registers` (above).
                        let read = |row| f32::from_bits(unsafe { *lane_at(row, lane) });
                        let [a, b, c] = [a, b, c].map(read);
                        if ROUNDS_TWICE {
                            a * b + c
                        } else {
                            a.mul_add(b, c)
                        }
                        .to_bits()
                    })
                    .collect();
                if results.iter().any(|&r| f32::from_bits(r).is_nan()) {
                    return index << 8 | group;
                }
                for (&lane, &result) in chosen.iter().zip(&results) {
                    // SAFETY: `lane_at` points inside `registers` (above).
                    unsafe { *lane_at(dst, lane) = result };
                }
            }
        }
        count << 8
    }

    #[test]
    fn the_probe_takes_a_fused_run_and_refuses_one_that_rounds_twice_or_ignores_the_mask() {
        for mask in [u64::MAX, 0x0FF0_FFFF_5A5A_FFFF, 0x0000_0000_FFFF_0FF0] {
            assert!(
                probe_agrees(software::<false, false>, mask, 64),
                "{mask:#x}"
            );
        }
        assert!(probe_agrees(software::<false, false>, u64::MAX, 32));
        assert!(!probe_agrees(software::<true, false>, u64::MAX, 64));
        // Rounding twice shows on the lanes below 32 too.
        assert!(!probe_agrees(software::<true, false>, u64::MAX, 32));
        assert!(!probe_agrees(
            software::<false, true>,
            0x0FF0_FFFF_5A5A_FFFF,
            64
        ));
    }

    #[test]
    fn a_row_through_a_fused_run_matches_rounding_once_in_f64() {
        // Near-ones, whose products need more than f32 precision (rounding once and twice
        // differ), with their negations for cancellation; subnormals; large and small values;
        // and an infinity and a NaN that stop the fused run on the way. Rows of 150 values (two
        // full calls and a partial one) and of 3.
        let near_ones = (1..6).map(|k| 1.0 + k as f32 / 4096.0);
        let values: Vec<f32> = near_ones
            .flat_map(|v| [v, -v])
            .chain([0x0000_1234, 0x807F_0001].map(f32::from_bits))
            .chain([0.1, 3.0e-8, 1.0e20, 16_777_217.0, f32::INFINITY, f32::NAN])
            .collect();
        for len in [150, 3] {
            let b: Vec<f32> = (0..len).map(|j| values[(j * 7) % values.len()]).collect();
            let b_bytes: Vec<u8> = b.iter().flat_map(|v| v.to_le_bytes()).collect();
            for &a in &values {
                let start: Vec<f32> = (0..len)
                    .map(|j| values[(j * 5 + 3) % values.len()])
                    .collect();
                let mut expected = start.clone();
                float::fma_row_by_round_to_odd(&mut expected, a, &b_bytes);
                let mut got = start.clone();
                fma_row_with(software::<false, false>, &mut got, a, &b_bytes);
                for (j, (got, expected)) in got.iter().zip(&expected).enumerate() {
                    let agree =
                        got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan());
                    assert!(
                        agree,
                        "{a} * {} + {}: {got} against {expected}",
                        b[j], start[j]
                    );
                }
            }
        }
        // A fused run that rounds twice gives other bits: the test can tell.
        let (a, b) = (1.0f32 + 1.0 / 4096.0, 1.0f32 + 1.0 / 4096.0);
        let mut twice = [-(1.0 + 2.0 / 4096.0)];
        fma_row_with(software::<true, false>, &mut twice, a, &b.to_le_bytes());
        let mut once = [-(1.0 + 2.0 / 4096.0)];
        float::fma_row_by_round_to_odd(&mut once, a, &b.to_le_bytes());
        assert_ne!(twice[0].to_bits(), once[0].to_bits());
    }

    #[test]
    fn a_run_stopped_by_a_nan_is_finished_by_the_per_lane_rules_and_goes_on() {
        let (registers, run) = probe();
        let packed: Vec<u32> = run.iter().map(pack).collect();
        for mask in [u64::MAX, 0x8000_0000_0000_0001, 0x0000_FFFF_0000_0F0F] {
            let mut expected = registers.clone();
            for instr in &run {
                exact_lanes(&mut expected, instr, mask, MAX_LANES);
            }
            let mut got = registers.clone();
            run_on_rows(software::<false, false>, &mut got, &run, &packed, mask, 64);
            assert!(got == expected, "{mask:#x}");
            // The probe's run does meet NaNs: without the per-lane rules after a stop, lanes
            // would be missing.
            let mut unfinished = registers.clone();
            // SAFETY: the rows hold every register of the run.
            let stop = unsafe {
                software::<false, false>(
                    unfinished.as_mut_ptr().cast(),
                    packed.as_ptr(),
                    5,
                    mask,
                    64,
                )
            };
            assert!(stop >> 8 < 5, "the probe's run stops at a NaN ({mask:#x})");
            assert!(unfinished != expected);
        }
    }
}
