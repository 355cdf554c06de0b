//! Short lessons: one wave (or two) of eight lanes, each showing one divergence behaviour.

use super::{small_form, Example};

const IF_ELSE: &str = "\
; Lanes 0-2 take the `if` side, lanes 3-7 the `else` side;
; both sides meet again at `endif`.
.kernel if_else
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 3
    icmp_lt  p1, r0, r1          ; p1: lane < 3
    if p1                        ; ?mask
        mov_imm r2, 111          ; lanes 0-2
    else                         ; ?next
        mov_imm r2, 222          ; lanes 3-7
    endif                        ; ?stack
    mov_imm  r3, 4
    imul     r4, r0, r3          ; byte address = lane * 4
    device_store_u32 r4, r2
    halt
.end
";

const NESTED_IF: &str = "\
; An `if` inside an `if`: the stack holds two frames while the
; inner one runs, and each `endif` pops one.
.kernel nested_if
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 4
    mov_imm  r2, 1
    and      r3, r0, r2          ; r3 = lane & 1
    mov_imm  r5, 0
    icmp_lt  p1, r0, r1          ; p1: lane < 4
    icmp_eq  p2, r3, r2          ; p2: lane is odd
    if p1
        if p2
            mov_imm r5, 1        ; lanes 1 and 3
        else
            mov_imm r5, 2        ; lanes 0 and 2
        endif
    else
        mov_imm r5, 3            ; lanes 4-7
    endif
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r5
    halt
.end
";

const LOOP_EXIT: &str = "\
; Lane n goes round the loop n + 1 times: one lane leaves
; after each iteration and waits until the last lane is done.
.kernel loop_exit
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 0               ; iterations so far
    mov_imm  r2, 1
    loop
        iadd    r1, r1, r2
        icmp_gt p1, r1, r0       ; done once count > lane
        break   p1
    endloop
    mov_imm  r3, 4
    imul     r4, r0, r3
    device_store_u32 r4, r1
    halt
.end
";

const BREAK_CONTINUE: &str = "\
; Sum the even numbers up to lane + 2. `continue` skips the add
; for odd i and comes back next iteration; `break` leaves for good.
.kernel break_continue
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 2
    iadd     r2, r0, r1          ; limit = lane + 2
    mov_imm  r3, 0               ; i
    mov_imm  r4, 0               ; sum
    mov_imm  r5, 1
    loop
        iadd     r3, r3, r5      ; i += 1
        icmp_gt  p1, r3, r2      ; past the limit: leave
        break    p1
        and      r6, r3, r5
        icmp_eq  p2, r6, r5      ; i is odd
        continue p2              ; skip the add this time
        iadd     r4, r4, r3      ; sum += i (even i only)
    endloop
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r4
    halt
.end
";

const BREAK_IN_IF: &str = "\
; A `break` inside an `if`: the lane that breaks is parked until
; the loop ends, so it does not run the rest of this iteration.
.kernel break_in_if
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 0               ; count
    mov_imm  r2, 1
    mov_imm  r3, 0               ; iterations finished past the check
    loop
        iadd    r1, r1, r2
        icmp_gt p1, r1, r0       ; count > lane
        if p1
            break p1
        endif
        iadd    r3, r3, r2       ; never runs for a lane that broke
    endloop
    mov_imm  r4, 4
    imul     r5, r0, r4
    device_store_u32 r5, r3
    halt
.end
";

const SELECT_VS_BRANCH: &str = "\
; The larger of lane and 7 - lane, twice: with a branch (two
; half-empty sides) and with `select` (one instruction, all lanes).
.kernel select_vs_branch
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 7
    isub     r2, r1, r0          ; r2 = 7 - lane
    icmp_gt  p1, r0, r2          ; p1: lane is the larger
    if p1
        mov  r3, r0
    else
        mov  r3, r2
    endif
    select   r4, p1, r0, r2      ; the same, without diverging
    mov_imm  r5, 8
    imul     r6, r0, r5          ; two words per lane
    device_store_u32 r6, r3
    mov_imm  r5, 4
    iadd     r6, r6, r5
    device_store_u32 r6, r4
    halt
.end
";

const WAVE_OPS: &str = "\
; Wave operations see only the active lanes: the sum over the
; whole wave is 28, over the odd lanes 16, and the ballot inside
; the `if` has bits only for odd lanes.
.kernel wave_ops
.registers 10
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 1
    and      r2, r0, r1
    icmp_eq  p1, r2, r1          ; p1: odd lane
    mov_imm  r9, 4
    icmp_gt  p2, r0, r9          ; p2: lane > 4
    wave_reduce_add r3, r0       ; every lane: 0 + 1 + ... + 7
    mov_imm  r4, 0
    mov_imm  r5, 0
    if p1
        wave_reduce_add r4, r0   ; odd lanes: 1 + 3 + 5 + 7
        wave_ballot     r5, p2   ; odd lanes above 4: 5 and 7
    endif
    mov_imm  r6, 12
    imul     r7, r0, r6          ; three words per lane
    device_store_u32 r7, r3
    iadd     r7, r7, r9
    device_store_u32 r7, r4
    iadd     r7, r7, r9
    device_store_u32 r7, r5
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
    local_load_u32 r7, r6
    device_store_u32 r2, r7
    halt
.end
";

pub(super) fn lessons() -> Vec<Example> {
    let lesson = |id, title, explanation, source: &str, threads, memory| Example {
        id,
        topic: topic_of(id),
        title,
        explanation,
        source: source.to_string(),
        form: small_form(threads, 8, memory),
        check: None,
    };
    vec![
        lesson(
            "if-else",
            "If / else divergence",
            "An `if` splits the wave: lanes 0-2 run the then side while lanes 3-7 wait, then the \
             roles swap for the else side. At `endif` the frame is popped and all eight lanes run \
             together again. Step through it and watch the mask and the stack.",
            IF_ELSE,
            8,
            256,
        ),
        lesson(
            "nested-if",
            "Nested if",
            "The inner `if` splits only the lanes the outer one let through, so the stack holds \
             two frames at once. Lanes 4-7 wait through the whole inner construct for their own \
             else side. Each `endif` pops one frame.",
            NESTED_IF,
            8,
            256,
        ),
        lesson(
            "loop-exit",
            "Divergent loop exit",
            "Every lane runs the loop a different number of times. A lane that breaks is parked \
             in the loop frame's break mask; the loop keeps going with fewer lanes, and SIMD \
             efficiency drops with each iteration. All lanes leave together at `endloop`.",
            LOOP_EXIT,
            8,
            256,
        ),
        lesson(
            "break-continue",
            "Break vs continue",
            "`continue` parks a lane only for the rest of this iteration: it rejoins at the next \
             one. `break` parks it until the whole loop ends. Watch the continue and break masks \
             of the loop frame fill and empty.",
            BREAK_CONTINUE,
            8,
            256,
        ),
        lesson(
            "break-in-if",
            "Break inside if",
            "A lane that breaks inside an `if` leaves the loop, not just the `if`: it stays \
             parked at `endif` and skips the rest of the iteration. Each lane stores how many \
             iterations it finished past the check, which equals its lane number.",
            BREAK_IN_IF,
            8,
            256,
        ),
        lesson(
            "select-vs-branch",
            "Select vs branch",
            "The same choice made twice: once with `if`/`else`, where each side runs with only \
             part of the wave, and once with `select`, one instruction with every lane active. \
             Compare the per-line SIMD efficiency in the gutter after a run.",
            SELECT_VS_BRANCH,
            8,
            256,
        ),
        lesson(
            "wave-ops",
            "Wave reduction and ballot under divergence",
            "Wave operations combine values across the active lanes only. The reduction before \
             the `if` sums all eight lanes; inside it only the odd lanes take part, and the \
             ballot sets bits just for the active lanes whose predicate holds.",
            WAVE_OPS,
            8,
            256,
        ),
        lesson(
            "barrier-local",
            "Barrier and local memory across two waves",
            "Sixteen threads form two waves of eight. Each writes its slot of local memory and \
             waits at the barrier; once both waves arrive, each reads the slot its mirror thread \
             in the other wave wrote. Without the barrier the first wave would read zeros.",
            BARRIER_LOCAL,
            16,
            256,
        ),
    ]
}

fn topic_of(id: &str) -> &'static str {
    match id {
        "select-vs-branch" => super::PREDICATION,
        "wave-ops" => super::WAVE_OPERATIONS,
        "barrier-local" => super::WORKGROUPS,
        _ => super::CONTROL_FLOW,
    }
}
