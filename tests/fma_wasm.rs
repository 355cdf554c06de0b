//! `fma` in the browser: with the browser's fused multiply-add where the engine takes it
//! (`src/fma.rs`), else the engine's own pass in f64. Either way every result must be the exact
//! per-lane rules' (`numeric::float::fma`), on every triple of a set of awkward operands, in a run
//! of `fma`s with chains, NaNs on the way, a destination that is an operand and a guard.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use wave_engine::machine::{LaunchConfig, Machine, Stop};
use wave_engine::numeric::float;
use wave_playground::fma::FmaOffer;

wasm_bindgen_test_configure!(run_in_browser);

/// Each thread loads a, b and c and runs four `fma`s in a row (one run, as lockstep hands it
/// over): `a * b + c`; a chain on that result; one whose destination is two of its operands; and
/// one guarded to the lanes below 13 of each wave (a guard that splits a group of four lanes).
const KERNEL: &str = "
.kernel fma_triples
.workgroup_size 64, 1, 1
    mov_sr r4, sr_thread_id_x
    mov_sr r5, sr_workgroup_id_x
    mov_imm r6, 64
    imad r4, r5, r6, r4
    mov_imm r6, 4
    imul r4, r4, r6
    iadd r7, r4, r1
    device_load_u32 r10, r7
    iadd r7, r4, r2
    device_load_u32 r11, r7
    iadd r7, r4, r3
    device_load_u32 r12, r7
    mov_sr r8, sr_lane_id
    mov_imm r9, 13
    icmp_lt p1, r8, r9
    fma r13, r10, r11, r12
    fma r14, r13, r13, r10
    fma r10, r10, r11, r10
    @p1 fma r12, r11, r11, r13
    iadd r7, r4, r0
    device_store_u32 r7, r13
    iadd r7, r4, r16
    device_store_u32 r7, r14
    iadd r7, r4, r17
    device_store_u32 r7, r10
    iadd r7, r4, r18
    device_store_u32 r7, r12
    halt
.end
";

/// Values where one rounding and two differ, ties, cancellation, subnormals, zeros of both
/// signs, infinities and NaNs.
fn awkward() -> Vec<u32> {
    let near_one = |k: f32| 1.0 + k / 4096.0;
    let mut values: Vec<u32> = [
        near_one(1.0),
        near_one(3.0),
        -near_one(1.0),
        -(1.0 + 1.0 / 2048.0),
        1.0 + 3.0 / 2048.0,
        1.0 / 3.0,
        3.0,
        -1.0,
        0.5,
        1.0e-20,
        -2.5e-19,
        1.0e30,
        f32::MAX,
        f32::MIN_POSITIVE,
    ]
    .map(f32::to_bits)
    .to_vec();
    values.extend([
        0,
        0x8000_0000,
        1,
        0x8000_0005,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x7FA0_0001,
    ]);
    values
}

#[wasm_bindgen_test]
fn fma_gives_the_per_lane_rules_results_with_or_without_the_browser_s() {
    let offer = wave_playground::fma::offer_to_engine();
    console_log!("the browser's fused multiply-add: {offer:?}");
    // Whether it rounds once depends on the CPU; that it can be set up does not.
    assert_ne!(offer, FmaOffer::NotInstalled);
    let values = awkward();
    let mut triples: Vec<[u32; 3]> = Vec::new();
    for &a in &values {
        for &b in &values {
            for &c in &values {
                triples.push([a, b, c]);
            }
        }
    }
    triples.resize(triples.len().div_ceil(64) * 64, [0; 3]);
    let threads = triples.len();
    let bytes = |words: usize| (words * 4) as u32;
    let config = LaunchConfig {
        grid: [(threads / 64) as u32, 1, 1],
        workgroup: [1, 1, 1],
        wave_width: 32,
        device_memory: bytes(7 * threads),
        max_instructions: 0,
        initial_registers: vec![
            (1, 0),
            (2, bytes(threads)),
            (3, bytes(2 * threads)),
            (0, bytes(3 * threads)),
            (16, bytes(4 * threads)),
            (17, bytes(5 * threads)),
            (18, bytes(6 * threads)),
        ],
        ..LaunchConfig::default()
    };
    let program = wave_engine::compile(KERNEL)
        .program
        .expect("the kernel compiles");
    let mut machine = Machine::new(&program.kernels[0], &config).expect("a valid launch");
    let memory = machine.device_mut().bytes_mut();
    for (k, operand) in (0..3).enumerate() {
        for (thread, triple) in triples.iter().enumerate() {
            let at = (k * threads + thread) * 4;
            memory[at..at + 4].copy_from_slice(&triple[operand].to_le_bytes());
        }
    }
    assert_eq!(machine.run_to_end(), Stop::Finished);
    let word = |index: usize| {
        let at = index * 4;
        let bytes = &machine.device().bytes()[at..at + 4];
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    };
    for (thread, &[a, b, c]) in triples.iter().enumerate() {
        let first = float::fma(a, b, c);
        let expected = [
            first,
            float::fma(first, first, a),
            float::fma(a, b, a),
            if thread % 32 < 13 {
                float::fma(b, b, first)
            } else {
                c
            },
        ];
        for (k, want) in expected.into_iter().enumerate() {
            assert_eq!(
                word((3 + k) * threads + thread),
                want,
                "thread {thread}, fma {k}: a {a:#x}, b {b:#x}, c {c:#x}"
            );
        }
    }
}
