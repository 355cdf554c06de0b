//! `fma` as the engine runs it in wasm against the exact per-lane rules (`numeric::float::fma`), on
//! operands chosen to reach every case of its passes: sums on an f32 midpoint (exact ties, and
//! inexact ones that must round away from the tie), cancellation, subnormal and zero results,
//! infinities and NaNs. Here (`check.mjs`) it checks the engine's own 128-bit SIMD pass; the page's
//! browser test (`tests/fma_wasm.rs`, which includes this file) checks it with the browser's
//! fused multiply-add lent to the engine. The GEMM checksums cover ordinary values. It launches
//! through the benchmark's `cases.rs`, which both crates include beside it.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use wave_engine::machine::Stop;
use wave_engine::numeric::float;

use crate::cases::{self, Launch};

/// Each thread loads a, b and c and stores three results: `a * b + c`; on lanes 0 to 12 of each
/// wave only (a mask that splits a group of four lanes) `b * a + (a * b + c)`, the other lanes
/// keeping `a * b + c`; and `a * b + c` written over c itself.
const KERNEL: &str = "
.kernel fma_lanes
.workgroup_size 128, 1, 1
    mov_sr r4, sr_thread_id_x
    mov_sr r5, sr_workgroup_id_x
    mov_imm r6, 128
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
    fma r14, r10, r11, r12
    @p1 fma r14, r11, r10, r13
    fma r12, r10, r11, r12
    iadd r7, r4, r0
    device_store_u32 r7, r13
    iadd r7, r4, r16
    device_store_u32 r7, r14
    iadd r7, r4, r17
    device_store_u32 r7, r12
    halt
.end
";

const WORKGROUP: usize = 128;

/// Runs `workgroups * 128` threads at `wave_width` with operands drawn from `seed`; the number
/// of result words that differ from the per-lane rules, or `u32::MAX` if the kernel did not run.
pub fn mismatches(seed: u64, workgroups: u32, wave_width: u32) -> u32 {
    let threads = workgroups as usize * WORKGROUP;
    let mut rng = SplitMix64::seed_from_u64(seed);
    let operands: Vec<[u32; 3]> = (0..threads).map(|_| operand_triple(&mut rng)).collect();
    let Some(results) = run(&operands, workgroups, wave_width) else {
        return u32::MAX;
    };
    let mut wrong = 0;
    for (thread, &[a, b, c]) in operands.iter().enumerate() {
        let plain = float::fma(a, b, c);
        let guarded = if thread % wave_width as usize >= 13 {
            plain
        } else {
            float::fma(b, a, plain)
        };
        let expected = [plain, guarded, plain];
        wrong += (0..3)
            .filter(|&k| results[k * threads + thread] != expected[k])
            .count() as u32;
    }
    wrong
}

/// The three result arrays, one after another, or `None` if the kernel did not compile or run.
fn run(operands: &[[u32; 3]], workgroups: u32, wave_width: u32) -> Option<Vec<u32>> {
    let threads = operands.len();
    let bytes = |words: usize| (words * 4) as u32;
    // a, b and c, each an array of the threads' operands; then the three results.
    let mut memory: Vec<u8> = (0..3)
        .flat_map(|k| {
            operands
                .iter()
                .flat_map(move |triple| triple[k].to_le_bytes())
        })
        .collect();
    memory.resize(6 * threads * 4, 0);
    let launch = Launch {
        name: "fma edge cases".to_string(),
        source: KERNEL,
        grid: [workgroups, 1, 1],
        memory,
        registers: vec![
            (1, 0),
            (2, bytes(threads)),
            (3, bytes(2 * threads)),
            (0, bytes(3 * threads)),
            (16, bytes(4 * threads)),
            (17, bytes(5 * threads)),
        ],
        output: 3 * threads * 4..6 * threads * 4,
    };
    let mut machine = cases::machine(&launch, wave_width).ok()?;
    if machine.run_to_end() != Stop::Finished {
        return None;
    }
    let out = &machine.device().bytes()[launch.output];
    Some(
        out.chunks_exact(4)
            .map(|word| u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
            .collect(),
    )
}

/// One thread's a, b and c, from one of the cases the vector pass treats apart.
fn operand_triple(rng: &mut SplitMix64) -> [u32; 3] {
    let mut draw = |below: u64| rng.next_u64() % below;
    let sign = |bit: u64| if bit == 1 { -1.0f32 } else { 1.0 };
    let scale = |exponent: i32| 2f32.powi(exponent);
    match draw(6) {
        // Short mantissas: exact f64 sums, many on an f32 midpoint (a real tie, to even).
        0 => [0; 3].map(|_| {
            let mantissa = draw(1 << 13) as f32;
            (sign(draw(2)) * mantissa * scale(draw(16) as i32 - 20)).to_bits()
        }),
        // (1 + i/4096)(1 + j/4096): on a midpoint when i and j are odd; a tiny c makes the f64
        // sum inexact, and the result must round towards c, not to even.
        1 => {
            let near_one = |k: u64| 1.0 + k as f32 / 4096.0;
            let a = sign(draw(2)) * near_one(draw(4096));
            let b = near_one(draw(4096));
            let c = match draw(3) {
                0 => 0.0,
                _ => sign(draw(2)) * scale(-60 - draw(40) as i32),
            };
            [a.to_bits(), b.to_bits(), c.to_bits()]
        }
        // Cancellation: c within a few ulps of -(a * b).
        2 => {
            let a = (1.0 + draw(1 << 23) as f32 / (1 << 23) as f32) * scale(draw(20) as i32 - 10);
            let b = (1.0 + draw(1 << 23) as f32 / (1 << 23) as f32) * sign(draw(2));
            let c = (-(a * b))
                .to_bits()
                .wrapping_add(draw(5) as u32)
                .wrapping_sub(2);
            [a.to_bits(), b.to_bits(), c]
        }
        // Products and sums near and below the smallest normal f32.
        3 => {
            let tiny = |exponent: i32, fraction: u64| {
                (1.0 + fraction as f32 / (1 << 23) as f32) * scale(exponent)
            };
            let a = sign(draw(2)) * tiny(-60 - draw(8) as i32, draw(1 << 23));
            let b = tiny(-60 - draw(8) as i32, draw(1 << 23));
            let c = match draw(3) {
                0 => 0.0,
                1 => sign(draw(2)) * f32::from_bits(draw(1 << 23) as u32),
                _ => -(a * b),
            };
            [a.to_bits(), b.to_bits(), c.to_bits()]
        }
        // Zeros, infinities, NaNs with payloads, the extremes.
        4 => [0; 3].map(|_| {
            const SPECIAL: [u32; 10] = [
                0x0000_0000,
                0x8000_0000,
                0x7F80_0000,
                0xFF80_0000,
                0x7FC0_0000,
                0x7FA0_0001,
                0xFFC1_2345,
                0x0080_0000,
                0x7F7F_FFFF,
                0x3F80_0000,
            ];
            SPECIAL[draw(SPECIAL.len() as u64) as usize]
        }),
        // Any finite value near one, exponents close enough for the terms to interact.
        _ => [0; 3].map(|_| {
            let exponent = 127 - 24 + draw(48) as u32;
            (draw(2) as u32) << 31 | exponent << 23 | draw(1 << 23) as u32
        }),
    }
}
