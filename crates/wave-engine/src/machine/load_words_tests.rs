//! `load_words` against a lane-by-lane model of the instruction: each lane in order checks its
//! whole access, loads it, and the first lane out of bounds stops the load with a fault naming it.
//! The fast path checks blocks of eight lanes by their address pattern and hands a block it
//! cannot vouch for back to the checked loop, so the cases aim addresses at the end of memory,
//! in uniform, consecutive and scattered blocks, with the destination overlapping the addresses.

use super::{load_words, LaneFault};
use crate::instr::{Instr, Op};
use crate::machine::cpu::Avx2Fma;
use crate::machine::memory::Memory;
use crate::machine::trap::{MemorySpace, TrapKind};
use crate::machine::wave::{lanes_mask, Wave};
use proptest::prelude::*;

const REGISTERS: u32 = 8;
const ADDRESS_REGISTER: u8 = 2;

/// What the instruction must do: registers after it and the fault, if any.
fn model(wave: &Wave, dst: u8, words: usize, bytes: &[u8]) -> (Vec<Vec<u32>>, Option<u32>) {
    let mut registers: Vec<Vec<u32>> = wave.registers.iter().map(|row| row.to_vec()).collect();
    let addresses = registers[ADDRESS_REGISTER as usize].clone();
    for lane in 0..wave.width as usize {
        let start = addresses[lane] as usize;
        let Some(chunk) = bytes.get(start..start + 4 * words) else {
            return (registers, Some(lane as u32));
        };
        for (word, value) in chunk.chunks_exact(4).enumerate() {
            registers[dst as usize + word][lane] =
                u32::from_le_bytes([value[0], value[1], value[2], value[3]]);
        }
    }
    (registers, None)
}

fn run<const WORDS: usize>(
    width: u32,
    addresses: &[u32],
    dst: u8,
    memory_len: usize,
    avx2: Option<Avx2Fma>,
) -> Result<(), TestCaseError> {
    let op = match WORDS {
        1 => Op::DeviceLoadU32,
        2 => Op::DeviceLoadU64,
        _ => Op::DeviceLoadU128,
    };
    let instr = Instr {
        dst,
        a: ADDRESS_REGISTER,
        ..Instr::new(op)
    };
    let bytes: Vec<u8> = (0..memory_len).map(|i| (i * 7 + 3) as u8).collect();
    let memory = Memory::from_bytes(bytes.clone());
    let mut wave = Wave::new(0, width, width, REGISTERS);
    for (r, row) in wave.registers.iter_mut().enumerate() {
        for (lane, slot) in row.iter_mut().enumerate() {
            *slot = 0xA000_0000 | (r as u32) << 8 | lane as u32;
        }
    }
    wave.registers[ADDRESS_REGISTER as usize][..addresses.len()].copy_from_slice(addresses);
    let (expected, expected_fault) = model(&wave, dst, WORDS, &bytes);
    let mask = lanes_mask(width);
    // SAFETY: the address register is below `REGISTERS` and the width at most 64.
    let result =
        unsafe { load_words::<WORDS>(&mut wave, &instr, mask, &memory, MemorySpace::Device, avx2) };
    let fault_lane = match result {
        Ok(()) => None,
        Err(LaneFault { kind, lane }) => {
            let out_of_bounds = matches!(kind, TrapKind::MemoryOutOfBounds { .. });
            prop_assert!(out_of_bounds);
            Some(lane)
        }
    };
    prop_assert_eq!(fault_lane, expected_fault);
    for (r, row) in wave.registers.iter().enumerate() {
        prop_assert_eq!(&row[..], &expected[r][..], "register {}", r);
    }
    Ok(())
}

/// Addresses in blocks of eight: uniform, consecutive (by the access size) or scattered, based
/// near the end of a small memory so that some blocks cross it.
fn addresses(words: usize) -> impl Strategy<Value = (u32, Vec<u32>, usize)> {
    let block = (0u8..3, 0u32..96, prop::collection::vec(0u32..112, 8));
    (1u32..=64, prop::collection::vec(block, 8), 48usize..112).prop_map(
        move |(width, blocks, memory_len)| {
            let stride = 4 * words as u32;
            let mut lanes = Vec::new();
            for (kind, base, scattered) in blocks {
                for (i, &other) in scattered.iter().enumerate() {
                    lanes.push(match kind {
                        0 => base,
                        1 => base + i as u32 * stride,
                        _ => other,
                    });
                }
            }
            lanes.truncate(width as usize);
            (width, lanes, memory_len)
        },
    )
}

fn both_paths<const WORDS: usize>(
    (width, lanes, memory_len): (u32, Vec<u32>, usize),
    dst: u8,
) -> Result<(), TestCaseError> {
    // The AVX2 path runs where the CPU has it (x86-64 only); the portable path everywhere.
    run::<WORDS>(width, &lanes, dst, memory_len, None)?;
    run::<WORDS>(width, &lanes, dst, memory_len, Avx2Fma::detect())
}

proptest! {
    // Miri interprets every instruction: a handful of cases there, the full run natively.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 6 } else { 600 }))]

    #[test]
    fn u32_loads_match_lane_by_lane(case in addresses(1), dst in 0u8..8) {
        both_paths::<1>(case, dst)?;
    }

    #[test]
    fn u64_loads_match_lane_by_lane(case in addresses(2), dst in 0u8..7) {
        both_paths::<2>(case, dst)?;
    }

    #[test]
    fn u128_loads_match_lane_by_lane(case in addresses(4), dst in 0u8..5) {
        both_paths::<4>(case, dst)?;
    }
}

#[test]
fn a_memory_smaller_than_one_access_faults_at_lane_zero() {
    for path in [None, Avx2Fma::detect()] {
        let memory = Memory::from_bytes(vec![1, 2, 3, 4, 5, 6, 7]);
        let mut wave = Wave::new(0, 32, 32, REGISTERS);
        let instr = Instr {
            dst: 4,
            a: ADDRESS_REGISTER,
            ..Instr::new(Op::DeviceLoadU64)
        };
        // SAFETY: the address register is below `REGISTERS` and the width is 32.
        let result = unsafe {
            load_words::<2>(
                &mut wave,
                &instr,
                u64::MAX >> 32,
                &memory,
                MemorySpace::Device,
                path,
            )
        };
        assert_eq!(result.map_err(|fault| fault.lane), Err(0));
        assert!(wave.registers[4].iter().all(|&value| value == 0));
    }
}
