//! Full-size, register-blocked f32 GEMMs (256 × 256 and 512 × 512) with generated inputs and a
//! result check.

use super::Example;
use crate::check::Check;
use crate::form::ConfigForm;
use crate::regions::{ElemType, RegionForm, RegionKind};

/// Matrix size of the smaller example, "gemm" (N × N).
pub const GEMM_N: u32 = 256;

/// Matrix size of the larger example, "gemm-512": the size the engine's speed is measured at.
pub const GEMM_512_N: u32 = 512;

/// The kernel: each thread of a 16 × 16 workgroup owns a 4 × 4 block of C in r16..r31 and walks
/// k four at a time, loading a 4 × 4 block of A (rows) and of B (k-rows) with 16-byte loads and
/// doing 64 `fma`s. Generated so that the 64 `fma` lines cannot be mistyped.
fn gemm_source() -> String {
    let mut s = String::new();
    s.push_str(
        "\
; C = A * B for N x N row-major f32 matrices (N a multiple of 64).
; Each thread keeps a 4 x 4 block of C in r16..r31 (c[i][j] in r(16+4i+j)).
; Per step of 4 in k it loads rows of A into r32..r47 (a[i][kk] in r(32+4i+kk))
; and rows of B into r48..r63 (b[kk][j] in r(48+4kk+j)), then does 64 fma.
; Launch: grid N/64 x N/64; r0 = N, r1 = A, r2 = B, r3 = C (byte offsets).
.kernel gemm
.registers 72
.workgroup_size 16, 16, 1
    mov_sr   r4, sr_thread_id_x
    mov_sr   r5, sr_thread_id_y
    mov_sr   r6, sr_workgroup_id_x
    mov_sr   r7, sr_workgroup_id_y
    mov_imm  r68, 4
    imul     r8, r0, r68             ; row stride in bytes = N * 4
    mov_imm  r69, 64
    imul     r9, r7, r69
    imul     r70, r5, r68
    iadd     r9, r9, r70             ; row0 = wg_y * 64 + ty * 4
    imul     r10, r6, r69
    imul     r70, r4, r68
    iadd     r10, r10, r70           ; col0 = wg_x * 64 + tx * 4
    imul     r11, r9, r8
    iadd     r11, r11, r1            ; pa = &A[row0][0]
    imul     r12, r10, r68
    iadd     r12, r12, r2            ; pb = &B[0][col0]
    iadd     r13, r11, r8            ; end of A's row row0
    imul     r14, r8, r68            ; four rows of B
    mov_imm  r15, 16                 ; four f32 of A
    loop
        device_load_u128 r32, r11
        iadd     r64, r11, r8
        device_load_u128 r36, r64
        iadd     r64, r64, r8
        device_load_u128 r40, r64
        iadd     r64, r64, r8
        device_load_u128 r44, r64
        device_load_u128 r48, r12
        iadd     r65, r12, r8
        device_load_u128 r52, r65
        iadd     r65, r65, r8
        device_load_u128 r56, r65
        iadd     r65, r65, r8
        device_load_u128 r60, r65
",
    );
    for kk in 0..4 {
        for i in 0..4 {
            for j in 0..4 {
                let c = 16 + 4 * i + j;
                s.push_str(&format!(
                    "        fma      r{c}, r{}, r{}, r{c}\n",
                    32 + 4 * i + kk,
                    48 + 4 * kk + j
                ));
            }
        }
    }
    s.push_str(
        "\
        iadd     r11, r11, r15           ; next four k of A
        iadd     r12, r12, r14           ; next four rows of B
        ucmp_le  p1, r13, r11            ; the row of A is used up
        break    p1
    endloop
    imul     r66, r9, r8
    iadd     r66, r66, r3
    imul     r67, r10, r68
    iadd     r66, r66, r67           ; &C[row0][col0]
    device_store_u128 r66, r16
    iadd     r66, r66, r8
    device_store_u128 r66, r20
    iadd     r66, r66, r8
    device_store_u128 r66, r24
    iadd     r66, r66, r8
    device_store_u128 r66, r28
    halt
.end
",
    );
    s
}

fn random_matrix(n: u32, offset: u32, seed: u32) -> RegionForm {
    RegionForm {
        count: (n * n).to_string(),
        seed: seed.to_string(),
        low: "-1".to_string(),
        high: "1".to_string(),
        ..RegionForm::new(RegionKind::Random, ElemType::F32, &offset.to_string())
    }
}

/// The 256 × 256 example ("gemm").
pub fn gemm_example() -> Example {
    gemm_of_size(
        "gemm",
        GEMM_N,
        "GEMM 256 × 256, register-blocked",
        "A full-size f32 matrix multiply: 16 workgroups of 256 threads, each thread computing a \
         4 × 4 block of C from 16-byte loads and 64 fused multiply-adds per step. A and B are \
         seeded random matrices; when the run finishes, the playground recomputes C in Rust and \
         reports the largest difference. (Try wave width 64 in Launch: the same result from \
         half the wave-instructions.)",
        gemm_source(),
    )
}

/// The same kernel at 512 × 512 ("gemm-512"): 5.5 million wave-instructions.
pub fn gemm_512_example() -> Example {
    gemm_of_size(
        "gemm-512",
        GEMM_512_N,
        "GEMM 512 × 512, register-blocked",
        "The register-blocked matrix multiply at 512 × 512: 64 workgroups of 256 threads, 134 \
         million fused multiply-adds in 5.5 million wave-instructions, run by the engine in \
         your browser. A and B are seeded random matrices; when the run finishes, the \
         playground recomputes C in Rust, a slice at a time, and reports the largest \
         difference.",
        gemm_source(),
    )
}

/// The benchmark's tiled GEMM (wave-bench runs it on `wave-emu` too), at 512 × 512
/// ("gemm-512-tiled"): the page's time for the very kernel the reference emulator is timed on.
pub fn gemm_512_tiled_example() -> Example {
    gemm_of_size(
        "gemm-512-tiled",
        GEMM_512_N,
        "GEMM 512 × 512, tiled",
        "The same product written for 32 registers, the most the reference emulator \
         (wave-emu 0.1.2) has: each workgroup copies 64 × 16 tiles of A and B into local memory, \
         waits at a barrier, and every thread then walks the tile for its 4 × 4 block of C. 7.8 \
         million wave-instructions; the benchmark times wave-emu on this very kernel. When the \
         run finishes, the playground recomputes C in Rust and reports the largest difference.",
        TILED_GEMM_SOURCE.to_string(),
    )
}

/// The kernel of `wave-bench`'s "blocked 4x4 GEMM", byte for byte.
const TILED_GEMM_SOURCE: &str = include_str!("../../../wave-bench/kernels/gemm_blocked.wave");

fn gemm_of_size(
    id: &'static str,
    n: u32,
    title: &'static str,
    explanation: &'static str,
    source: String,
) -> Example {
    let matrix = n * n * 4;
    let (a, b, c) = (0, matrix, 2 * matrix);
    let blocks = n / 64;
    Example {
        id,
        topic: super::FULL_SIZE,
        title,
        explanation,
        source,
        form: ConfigForm {
            grid: format!("{blocks},{blocks},1"),
            workgroup: "16,16,1".to_string(),
            wave_width: "32".to_string(),
            initial_registers: format!("r0={n}, r1={a}, r2={b}, r3={c}"),
            device_memory: (3 * matrix).to_string(),
            regions: vec![random_matrix(n, a, 1), random_matrix(n, b, 2)],
            ..ConfigForm::default()
        },
        expected: Vec::new(),
        check: Some(Check::Gemm { n, a, b, c }),
    }
}
