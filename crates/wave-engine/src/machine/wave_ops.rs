//! Cross-lane operations over the wave's active lanes. Shuffles read their source lane even when
//! it is inactive (as wave-emu does); only active lanes are written.

use super::lanes::{each_lane, set_predicate, src_a, src_b, write_masked};
use super::wave::Wave;
use crate::instr::{Instr, Op};
use crate::numeric::int;

pub fn exec(wave: &mut Wave, instr: &Instr, mask: u64) {
    let width = wave.width as usize;
    match instr.op {
        Op::WaveShuffle | Op::WaveShuffleUp | Op::WaveShuffleDown | Op::WaveShuffleXor => {
            let values = src_a(wave, instr);
            let selectors = src_b(wave, instr);
            let op = instr.op;
            write_masked(wave, instr.dst, mask, |lane| {
                let s = selectors[lane] as usize;
                let source = match op {
                    Op::WaveShuffle => Some(s),
                    Op::WaveShuffleUp => lane.checked_sub(s),
                    Op::WaveShuffleDown => lane.checked_add(s),
                    _ => Some(lane ^ s),
                };
                match source {
                    Some(source) if source < width => values[source],
                    _ => 0,
                }
            });
        }
        Op::WaveBroadcast => {
            let values = src_a(wave, instr);
            let selectors = src_b(wave, instr);
            let first = mask.trailing_zeros() as usize;
            let source = selectors[first.min(width - 1)] as usize;
            let value = if source < width { values[source] } else { 0 };
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
