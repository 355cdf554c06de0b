//! A 32 × 32 f32 GEMM done with the MMA instructions, one 4 × 4 tile of C per lane, checked
//! against the same sum computed in Rust (each term a separate multiply and add, k in order, as
//! the MMA unit computes it, so the results must be equal bit for bit).
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::compile;
use wave_engine::machine::{LaunchConfig, Machine, Stop};

const N: usize = 32;

/// Device memory: A at 0, B at 4 KiB, C at 8 KiB (row-major f32). Local memory: A at 0, B at
/// 4 KiB, then each lane's C tile at 8 KiB + lane * 64 (stride 16).
const KERNEL: &str = "\
.kernel mma_gemm
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    mov_imm r2, 1
    mov_imm r3, 4096
    mov_imm r4, 2048                ; words of A and B together
    mov_imm r5, 64                  ; lanes
    ; Copy A and B (2,048 words) into local memory, a word per lane per pass.
    mov r6, r0
    loop
        icmp_ge p1, r6, r4
        break p1
        shl r7, r6, r1
        device_load_u32 r8, r7
        local_store_u32 r7, r8
        iadd r6, r6, r5
    endloop
    barrier
    ; Lane i computes C tile (i / 8, i % 8): rows 4*(i/8).., columns 4*(i%8)..
    mov_imm r9, 3
    shr r10, r0, r9                 ; tile row
    mov_imm r9, 7
    and r11, r0, r9                 ; tile column
    mov_imm r12, 512                ; bytes per 4 rows (4 * 32 * 4)
    imul r13, r10, r12              ; A tile row base
    mov_imm r9, 16
    imul r14, r11, r9               ; B tile column offset (4 floats)
    iadd r14, r14, r3               ; B base in local memory
    mov_imm r15, 128                ; row stride: 32 floats
    mov_imm r16, 0                  ; k tile
    mov_imm r17, 8
    loop
        icmp_ge p2, r16, r17
        break p2
        imul r18, r16, r9           ; A: + k * 16 bytes
        iadd r18, r18, r13
        imul r19, r16, r12          ; B: + k * 512 bytes
        iadd r19, r19, r14
        mma_load_a r0, r18, r15
        mma_load_b r0, r19, r15
        mma_compute r0, r0, r0
        iadd r16, r16, r2
    endloop
    ; Store the tile to local memory, then copy it to C in device memory.
    mov_imm r20, 8192
    mov_imm r9, 64
    imul r21, r0, r9
    iadd r21, r21, r20              ; this lane's tile in local memory
    mov_imm r9, 16
    mma_store_c r21, r9, r0
    mov_imm r22, 0                  ; element of the tile
    mov_imm r23, 16
    loop
        icmp_ge p3, r22, r23
        break p3
        shl r24, r22, r1
        iadd r24, r24, r21
        local_load_u32 r25, r24
        mov_imm r9, 2
        shr r26, r22, r9            ; row in tile
        mov_imm r9, 3
        and r27, r22, r9            ; column in tile
        mov_imm r9, 4
        imul r28, r10, r9
        iadd r28, r28, r26          ; row of C
        mov_imm r9, 32
        imul r28, r28, r9
        mov_imm r9, 4
        imul r29, r11, r9
        iadd r29, r29, r27          ; column of C
        iadd r28, r28, r29
        shl r28, r28, r1
        mov_imm r9, 8192
        iadd r28, r28, r9
        device_store_u32 r28, r25
        iadd r22, r22, r2
    endloop
    halt
.end
";

#[test]
fn a_32_by_32_gemm_on_the_mma_unit_equals_the_rust_sum() {
    let program = compile(KERNEL).program.expect("the kernel compiles");
    let config = LaunchConfig {
        grid: [1, 1, 1],
        workgroup: [64, 1, 1],
        wave_width: 64,
        local_memory: 16 * 1024,
        device_memory: 12 * 1024,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(&program.kernels[0], &config).expect("launch");
    // Small integers and halves: every product and sum is exact, except where it is not, which
    // the order of the Rust sum then reproduces.
    let value = |i: usize| ((i * 7 + 3) % 11) as f32 * 0.5 - 2.0 + (i % 3) as f32 * 0.1;
    let a: Vec<f32> = (0..N * N).map(value).collect();
    let b: Vec<f32> = (0..N * N).map(|i| value(i + 5)).collect();
    let bytes = machine.device_mut().bytes_mut();
    for (i, x) in a.iter().chain(&b).enumerate() {
        bytes[i * 4..i * 4 + 4].copy_from_slice(&x.to_le_bytes());
    }
    assert_eq!(machine.run_to_end(), Stop::Finished);
    let out = machine.device().bytes();
    let mut wrong = 0;
    for i in 0..N {
        for j in 0..N {
            let mut sum = 0.0f32;
            for k in 0..N {
                sum += a[i * N + k] * b[k * N + j];
            }
            let at = 8192 + (i * N + j) * 4;
            let got = f32::from_le_bytes(out[at..at + 4].try_into().unwrap());
            if got.to_bits() != sum.to_bits() {
                wrong += 1;
            }
        }
    }
    assert_eq!(wrong, 0, "{wrong} of 1024 values differ from the Rust sum");
}
