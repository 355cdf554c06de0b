//! Lessons on predication against branching, on where lanes reconverge, and on workgroups
//! (barriers and local memory across waves).

use super::lesson;
use crate::examples::{Example, PREDICATION, RECONVERGENCE, WORKGROUPS};

const THREE_WAYS: &str = "\
; max(lane, 7 - lane) three ways: by branching, by `select`, and
; by two guarded moves. Run it and compare the gutter's bars.
.kernel three_ways
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 7
    isub     r2, r1, r0          ; r2 = 7 - lane
    icmp_gt  p1, r0, r2          ; p1: lane is the larger
    ; 1. A branch: each side runs with half of the wave.
    if p1                        ; ?mask
        mov  r3, r0
    else
        mov  r3, r2
    endif
    ; 2. One select: every lane active.
    select   r4, p1, r0, r2      ; ?value r4
    ; 3. Guarded moves: both issued to the whole wave.
    @p1  mov r5, r0
    @!p1 mov r5, r2
    mov_imm  r6, 12
    imul     r6, r0, r6          ; three words per lane
    device_store_u32 r6, r3
    mov_imm  r7, 4
    iadd     r6, r6, r7
    device_store_u32 r6, r4
    iadd     r6, r6, r7
    device_store_u32 r6, r5
    halt
.end
";

const RECONVERGE: &str = "\
; Lanes split by an `if` meet again at its `endif`. A wave
; operation counts only the lanes active where it runs.
.kernel reconverge
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 1
    and      r2, r0, r1
    icmp_eq  p1, r2, r1          ; p1: lane is odd
    mov_imm  r3, 0
    mov_imm  r5, 0
    loop
        iadd    r5, r5, r1
        if p1
            wave_reduce_add r3, r1   ; ?value r3
        endif                    ; ?mask
        icmp_ge p2, r5, r1       ; every lane: one iteration is enough
        break   p2
    endloop                      ; ?stack
    wave_reduce_add r4, r1       ; every lane counts again
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r3
    mov_imm  r6, 32
    iadd     r7, r7, r6
    device_store_u32 r7, r4
    halt
.end
";

const WORKGROUP_SUM: &str = "\
; Two waves each sum their lanes with a wave reduction, meet at
; the barrier, then add the two partial sums from local memory.
.kernel workgroup_sum
.registers 8
    mov_sr   r0, sr_thread_id_x
    mov_sr   r1, sr_wave_id
    wave_reduce_add r2, r0       ; ?value r2
    mov_imm  r3, 4
    imul     r4, r1, r3          ; slot = wave * 4
    local_store_u32 r4, r2
    barrier                      ; ?next
    mov_imm  r5, 0
    local_load_u32 r5, r5        ; wave 0's partial sum
    local_load_u32 r6, r3        ; wave 1's partial sum
    iadd     r7, r5, r6
    imul     r4, r0, r3
    device_store_u32 r4, r7
    halt
.end
";

const BARRIER_LOCAL: &str = "\
; Two waves of eight share local memory: every thread writes its
; slot, waits at the barrier, then reads the slot of its mirror
; thread in the other wave.
.kernel barrier_local
.registers 8
    mov_sr   r0, sr_thread_id_x
    mov_imm  r1, 4
    imul     r2, r0, r1          ; my slot
    mov_imm  r3, 10
    imul     r4, r0, r3          ; value = thread * 10
    local_store_u32 r2, r4
    barrier                      ; wait for the other wave's writes
    mov_imm  r5, 15
    isub     r6, r5, r0          ; mirror thread = 15 - thread
    imul     r6, r6, r1
    local_load_u32 r7, r6        ; ?value r7
    device_store_u32 r2, r7
    halt
.end
";

pub(super) fn lessons() -> Vec<Example> {
    let mirrored: Vec<u32> = (0..16).rev().map(|t| t * 10).collect();
    let larger: Vec<u32> = (0..8u32).flat_map(|l| [l.max(7 - l); 3]).collect();
    vec![
        lesson(
            PREDICATION,
            "three-ways",
            "Branch, select or predicate",
            "The same choice made three ways. The branch takes five wave-instructions, and the \
             two that do the work run with half the lanes each (half bars in the gutter after a \
             Run); `select` takes one, with every lane busy. The two guarded moves keep all eight \
             lanes active, so their bars are full, but each writes only half of them.",
            THREE_WAYS,
            8,
            larger,
        ),
        lesson(
            RECONVERGENCE,
            "reconverge",
            "Where lanes meet again",
            "The odd lanes split off at the `if` and the even ones wait at `endif`, where the \
             wave is whole again. The reduction inside the `if` counts four lanes and the one \
             after the loop counts eight: a wave operation sees only the lanes active where it \
             runs.",
            RECONVERGE,
            8,
            [vec![0, 4, 0, 4, 0, 4, 0, 4], vec![8; 8]].concat(),
        ),
        lesson(
            WORKGROUPS,
            "barrier-local",
            "Barrier and local memory across two waves",
            "Sixteen threads form two waves of eight. Each writes its slot of local memory and \
             waits at the barrier; once both waves arrive, each reads the slot its mirror thread \
             in the other wave wrote. Without the barrier the first wave would read zeros.",
            BARRIER_LOCAL,
            16,
            mirrored,
        ),
        lesson(
            WORKGROUPS,
            "workgroup-sum",
            "Sum across waves",
            "Each wave sums its own eight thread ids (28 and 92) with one reduction and leaves \
             the result in local memory. The barrier makes both sums visible before either wave \
             reads them, so every thread ends with the workgroup's total, 120.",
            WORKGROUP_SUM,
            16,
            vec![120; 16],
        ),
    ]
}
