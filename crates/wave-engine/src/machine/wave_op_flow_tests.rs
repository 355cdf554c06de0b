//! `wave_op_flow` says, before a cross-lane instruction runs, which lane each result comes from
//! and what it is. Checked against the ISA's rules written out here independently of the
//! machine: a shuffle reads its source lane even when inactive, an out-of-range source gives 0,
//! a broadcast takes its lane from the first active lane, votes and reductions cover the active
//! lanes only, the prefix sum is exclusive. A unit test: it sets up waves by hand, which only the
//! crate can.

use proptest::prelude::*;

use crate::instr::{Instr, Op};
use crate::machine::{wave_op_flow, LaneSource, Wave};

const OPS: [Op; 12] = [
    Op::WaveShuffle,
    Op::WaveShuffleUp,
    Op::WaveShuffleDown,
    Op::WaveShuffleXor,
    Op::WaveBroadcast,
    Op::WaveBallot,
    Op::WaveAny,
    Op::WaveAll,
    Op::WavePrefixSum,
    Op::WaveReduceAdd,
    Op::WaveReduceMin,
    Op::WaveReduceMax,
];

/// The source lane the ISA names for `lane`, or `None` when it is out of range.
fn expected_source(op: Op, lane: i64, selector: i64, width: i64) -> Option<i64> {
    let source = match op {
        Op::WaveShuffle | Op::WaveBroadcast => selector,
        Op::WaveShuffleUp => lane - selector,
        Op::WaveShuffleDown => lane + selector,
        _ => lane ^ selector,
    };
    (0..width).contains(&source).then_some(source)
}

fn lanes(mask: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |l| mask >> l & 1 == 1)
}

proptest! {
    #[test]
    fn flow_follows_the_isa(
        op in 0..OPS.len(),
        width in prop::sample::select(vec![4u32, 8, 16, 32, 64]),
        active in any::<u64>(),
        predicate in any::<u64>(),
        values in prop::collection::vec(any::<u32>(), 64),
        selectors in prop::collection::vec(0u32..72, 64),
    ) {
        let op = OPS[op];
        let mut wave = Wave::new(0, width, width, 8);
        let all = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
        wave.active = active & all;
        wave.predicates[2] = predicate & all;
        wave.registers[1][..].copy_from_slice(&values);
        wave.registers[2][..].copy_from_slice(&selectors);
        let mut instr = Instr::new(op);
        instr.dst = 3;
        instr.a = if matches!(op, Op::WaveBallot | Op::WaveAny | Op::WaveAll) { 2 } else { 1 };
        instr.b = 2;
        let flow = wave_op_flow(&wave, &instr).expect("a cross-lane op has a flow");
        let mask = wave.active;
        prop_assert_eq!(flow.mask, mask);
        let w = width as usize;
        let first = mask.trailing_zeros() as usize;
        for lane in 0..w {
            let source = flow.sources[lane];
            let result = flow.results[lane];
            let offered = if matches!(op, Op::WaveBallot | Op::WaveAny | Op::WaveAll) {
                (wave.predicates[2] >> lane & 1) as u32
            } else {
                values[lane]
            };
            prop_assert_eq!(flow.inputs[lane], offered, "what lane {} offers", lane);
            if mask >> lane & 1 == 0 {
                prop_assert_eq!(source, LaneSource::Idle);
                continue;
            }
            match op {
                Op::WaveShuffle | Op::WaveShuffleUp | Op::WaveShuffleDown | Op::WaveShuffleXor | Op::WaveBroadcast => {
                    let reader = if op == Op::WaveBroadcast { first } else { lane };
                    match expected_source(op, reader as i64, i64::from(selectors[reader]), w as i64) {
                        Some(s) => {
                            prop_assert_eq!(source, LaneSource::Lane(s as u8));
                            prop_assert_eq!(result, values[s as usize]);
                        }
                        None => {
                            prop_assert!(matches!(source, LaneSource::OutOfRange(_)));
                            prop_assert_eq!(result, 0);
                        }
                    }
                }
                Op::WaveBallot => {
                    let voted = mask & wave.predicates[2];
                    prop_assert_eq!(source, LaneSource::Lanes(voted));
                    prop_assert_eq!(result, voted as u32);
                }
                Op::WaveAny => prop_assert_eq!(result, u32::from(mask & wave.predicates[2] != 0)),
                Op::WaveAll => prop_assert_eq!(result, u32::from(mask & !wave.predicates[2] == 0)),
                Op::WavePrefixSum => {
                    let before = mask & ((1u64 << lane) - 1);
                    prop_assert_eq!(source, LaneSource::Lanes(before));
                    let sum = lanes(before).fold(0u32, |s, l| s.wrapping_add(values[l]));
                    prop_assert_eq!(result, sum);
                }
                _ => {
                    prop_assert_eq!(source, LaneSource::Lanes(mask));
                    let mut over = lanes(mask).map(|l| values[l]);
                    let start = over.next().unwrap_or(0);
                    let expected = match op {
                        Op::WaveReduceAdd => over.fold(start, u32::wrapping_add),
                        Op::WaveReduceMin => over.fold(start, u32::min),
                        _ => over.fold(start, u32::max),
                    };
                    prop_assert_eq!(result, expected);
                }
            }
        }
    }
}

#[test]
fn other_instructions_have_no_flow() {
    let wave = Wave::new(0, 8, 8, 4);
    assert_eq!(wave_op_flow(&wave, &Instr::new(Op::IAdd)), None);
    assert_eq!(wave_op_flow(&wave, &Instr::new(Op::If)), None);
}
