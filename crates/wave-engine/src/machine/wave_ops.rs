//! Cross-lane operations over the wave's active lanes. Shuffles read their source lane even when
//! it is inactive (as wave-emu does); only active lanes are written.

use super::control::guard_mask;
use super::lanes::{each_lane, set_predicate, src_a, src_b, write_masked};
use super::wave::Wave;
use crate::instr::{Instr, Op};
use crate::numeric::int;

/// The lane a shuffle of kind `op` reads for `lane`, given that lane's selector (the source
/// lane, the delta or the xor mask); `None` when the source is out of range (the lane gets 0).
#[inline(always)]
pub(super) fn shuffle_source(op: Op, lane: usize, selector: u32, width: usize) -> Option<usize> {
    let s = selector as usize;
    let source = match op {
        Op::WaveShuffle | Op::WaveBroadcast => Some(s),
        Op::WaveShuffleUp => lane.checked_sub(s),
        Op::WaveShuffleDown => lane.checked_add(s),
        _ => Some(lane ^ s),
    };
    source.filter(|&source| source < width)
}

pub(super) fn exec(wave: &mut Wave, instr: &Instr, mask: u64) {
    let width = wave.width as usize;
    match instr.op {
        Op::WaveShuffle | Op::WaveShuffleUp | Op::WaveShuffleDown | Op::WaveShuffleXor => {
            let values = src_a(wave, instr);
            let selectors = src_b(wave, instr);
            let op = instr.op;
            write_masked(wave, instr.dst, mask, |lane| {
                match shuffle_source(op, lane, selectors[lane], width) {
                    Some(source) => values[source],
                    None => 0,
                }
            });
        }
        Op::WaveBroadcast => {
            let values = src_a(wave, instr);
            let selectors = src_b(wave, instr);
            let first = broadcast_reader(mask, width);
            let value = shuffle_source(instr.op, first, selectors[first], width)
                .map_or(0, |source| values[source]);
            write_masked(wave, instr.dst, mask, |_| value);
        }
        Op::WaveBallot => {
            // The register is 32 bits: lanes 32..63 of a 64-wide wave are lost, as in wave-emu.
            let ballot = (mask & wave.predicates[instr.a as usize & 3]) as u32;
            write_masked(wave, instr.dst, mask, |_| ballot);
        }
        Op::WaveAny | Op::WaveAll => {
            let p = wave.predicates[instr.a as usize & 3];
            let result = if instr.op == Op::WaveAny {
                mask & p != 0
            } else {
                mask & !p == 0
            };
            set_predicate(wave, instr.dst, mask, |_| result);
        }
        Op::WavePrefixSum => {
            let values = src_a(wave, instr);
            let mut sums = [0u32; 64];
            let mut running = 0u32;
            for lane in each_lane(mask) {
                sums[lane] = running;
                running = int::iadd(running, values[lane]);
            }
            write_masked(wave, instr.dst, mask, |lane| sums[lane]);
        }
        Op::WaveReduceAdd | Op::WaveReduceMin | Op::WaveReduceMax => {
            let values = src_a(wave, instr);
            let mut lanes = each_lane(mask).map(|lane| values[lane]);
            let first = lanes.next().unwrap_or(0);
            let result = match instr.op {
                Op::WaveReduceAdd => lanes.fold(first, int::iadd),
                Op::WaveReduceMin => lanes.fold(first, int::umin),
                _ => lanes.fold(first, int::umax),
            };
            write_masked(wave, instr.dst, mask, |_| result);
        }
        _ => {}
    }
}

/// The lane whose selector a broadcast reads: the first executing lane.
#[inline(always)]
fn broadcast_reader(mask: u64, width: usize) -> usize {
    (mask.trailing_zeros() as usize).min(width - 1)
}

/// Where an executing lane's result came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneSource {
    /// The lane did not execute (inactive, or its guard was false): nothing was written.
    Idle,
    /// Read this lane's register (which may itself be inactive).
    Lane(u8),
    /// Asked for this lane, which does not exist: the result is 0.
    OutOfRange(i64),
    /// Combined from these lanes (votes, reductions, prefix sums; for a prefix sum, the lanes
    /// before it).
    Lanes(u64),
}

/// What one cross-lane instruction moves where, worked out before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveOpFlow {
    pub op: Op,
    /// The executing lanes (active, with the guard true).
    pub mask: u64,
    /// Per lane: where its result comes from.
    pub sources: Vec<LaneSource>,
    /// Per lane: the result it receives (a register value, or 0/1 for `wave_any`/`wave_all`);
    /// meaningful for executing lanes only.
    pub results: Vec<u32>,
    /// Per lane: what it offers before the instruction runs (the source register's value, or
    /// 0/1 for the predicate a vote reads), inactive lanes included.
    pub inputs: Vec<u32>,
}

/// Is `op` a cross-lane operation?
pub fn is_wave_op(op: Op) -> bool {
    matches!(
        op,
        Op::WaveShuffle
            | Op::WaveShuffleUp
            | Op::WaveShuffleDown
            | Op::WaveShuffleXor
            | Op::WaveBroadcast
            | Op::WaveBallot
            | Op::WaveAny
            | Op::WaveAll
            | Op::WavePrefixSum
            | Op::WaveReduceAdd
            | Op::WaveReduceMin
            | Op::WaveReduceMax
    )
}

/// What `instr`, a cross-lane operation about to run on `wave`, will move where; `None` for any
/// other instruction. The results come from running it on a copy of the wave, so they are
/// exactly what the machine computes.
pub fn flow(wave: &Wave, instr: &Instr) -> Option<WaveOpFlow> {
    if !is_wave_op(instr.op) {
        return None;
    }
    let width = (wave.width as usize).min(64);
    let mask = wave.active & guard_mask(wave, instr.guard);
    let selectors = src_b(wave, instr);
    let predicate = wave.predicates[instr.a as usize & 3];
    let lanes_before = |lane: usize| mask & ((1u64 << lane) - 1);
    let sources = (0..width)
        .map(|lane| {
            if mask >> lane & 1 == 0 {
                return LaneSource::Idle;
            }
            let reader = match instr.op {
                Op::WaveBroadcast => broadcast_reader(mask, width),
                _ => lane,
            };
            match instr.op {
                Op::WaveShuffle
                | Op::WaveShuffleUp
                | Op::WaveShuffleDown
                | Op::WaveShuffleXor
                | Op::WaveBroadcast => {
                    match shuffle_source(instr.op, reader, selectors[reader], width) {
                        Some(source) => LaneSource::Lane(source as u8),
                        None => {
                            LaneSource::OutOfRange(requested(instr.op, reader, selectors[reader]))
                        }
                    }
                }
                Op::WaveBallot => LaneSource::Lanes(mask & predicate),
                Op::WavePrefixSum => LaneSource::Lanes(lanes_before(lane)),
                _ => LaneSource::Lanes(mask),
            }
        })
        .collect();
    let values = src_a(wave, instr);
    let inputs = (0..width)
        .map(|lane| match instr.op {
            Op::WaveBallot | Op::WaveAny | Op::WaveAll => (predicate >> lane & 1) as u32,
            _ => values[lane],
        })
        .collect();
    let mut after = wave.clone();
    exec(&mut after, instr, mask);
    let results = (0..width)
        .map(|lane| match instr.op {
            Op::WaveAny | Op::WaveAll => {
                (after.predicates[instr.dst as usize & 3] >> lane & 1) as u32
            }
            _ => after.registers[instr.dst as usize][lane],
        })
        .collect();
    Some(WaveOpFlow {
        op: instr.op,
        mask,
        sources,
        results,
        inputs,
    })
}

/// The lane index a shuffle asked for (out of range here; below zero for `_up`).
fn requested(op: Op, lane: usize, selector: u32) -> i64 {
    let (lane, selector) = (lane as i64, i64::from(selector));
    match op {
        Op::WaveShuffleUp => lane - selector,
        Op::WaveShuffleDown => lane + selector,
        Op::WaveShuffleXor => lane ^ selector,
        _ => selector,
    }
}
