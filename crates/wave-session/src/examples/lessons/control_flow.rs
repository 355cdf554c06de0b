//! Lessons on structured control flow, after the WAVE control-flow guide: predicates, uniform
//! and divergent `if`, nesting, loops with divergent exits, `break` and `continue`, `halt` in a
//! branch, and calls.

use super::lesson;
use crate::examples::{Example, CONTROL_FLOW};

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
        if p2                    ; ?stack
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
        break   p1               ; ?mask
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
        continue p2              ; ?next
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
            break p1             ; ?stack
        endif
        iadd    r3, r3, r2       ; never runs for a lane that broke
    endloop
    mov_imm  r4, 4
    imul     r5, r0, r4
    device_store_u32 r5, r3
    halt
.end
";

const PREDICATES: &str = "\
; A compare writes one predicate bit per lane; an instruction
; guarded by `@p` runs only on the lanes whose bit is set.
.kernel predicates
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 5
    icmp_lt  p1, r0, r1          ; p1: lane < 5
    mov_imm  r2, 1
    and      r3, r0, r2
    icmp_eq  p2, r3, r2          ; p2: lane is odd
    mov_imm  r4, 0
    @p1  iadd r4, r4, r2         ; + 1 where lane < 5
    @p2  iadd r4, r4, r2         ; ?value r4
    @!p2 iadd r4, r4, r1         ; + 5 where lane is even
    mov_imm  r5, 4
    imul     r6, r0, r5          ; byte address = lane * 4
    device_store_u32 r6, r4
    halt
.end
";

const UNIFORM_IF: &str = "\
; When every active lane agrees, an `if` does not split the wave:
; either all lanes take it, or none does and the wave jumps ahead.
.kernel uniform_if
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 8
    mov_imm  r2, 0
    icmp_lt  p1, r0, r1          ; true on every lane
    if p1                        ; ?mask
        mov_imm r2, 1
    endif
    icmp_gt  p2, r0, r1          ; false on every lane
    if p2                        ; ?next
        mov_imm r2, 99           ; no lane runs this
    else
        iadd    r2, r2, r2       ; every lane: 2
    endif
    mov_imm  r3, 4
    imul     r4, r0, r3
    device_store_u32 r4, r2
    halt
.end
";

const HALT_IN_BRANCH: &str = "\
; `halt` inside a divergent `if` ends only the lanes that run it;
; the others finish the kernel without them.
.kernel halt_in_branch
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 4
    imul     r2, r0, r1          ; byte address = lane * 4
    mov_imm  r3, 1
    device_store_u32 r2, r3      ; every lane writes 1
    mov_imm  r4, 3
    icmp_lt  p1, r0, r4          ; p1: lane < 3
    if p1
        halt                     ; ?mask
    endif                        ; ?mask
    mov_imm  r3, 2
    device_store_u32 r2, r3      ; lanes 3-7 write 2
    halt
.end
";

const CALLS: &str = "\
; `call` runs a subroutine with the lanes that are active and
; `return` brings them back; inside a divergent `if` only those
; lanes run it.
.kernel calls
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 0
    call     add_ten             ; ?next
    mov_imm  r2, 1
    and      r3, r0, r2
    icmp_eq  p1, r3, r2          ; p1: lane is odd
    if p1
        call add_ten             ; ?mask
    endif
    mov_imm  r4, 4
    imul     r5, r0, r4
    device_store_u32 r5, r1
    halt
add_ten:
    mov_imm  r6, 10
    iadd     r1, r1, r6
    return
.end
";

pub(super) fn lessons() -> Vec<Example> {
    let lesson = |id, title, explanation, source, expected| {
        lesson(CONTROL_FLOW, id, title, explanation, source, 8, expected)
    };
    vec![
        lesson(
            "predicates",
            "Predicates and compares",
            "Each compare sets a predicate bit per lane: p1 for lanes 0-4, p2 for the odd lanes. \
             A guarded `@p` instruction is issued to the whole wave but changes only the lanes \
             whose bit is set, and `@!p` the others. Watch r4 and the predicate rows in the \
             registers.",
            PREDICATES,
            vec![6, 2, 6, 2, 6, 1, 5, 1],
        ),
        lesson(
            "uniform-if",
            "Uniform and skipped if",
            "The first `if` is true on every lane, so the wave does not split: the stack gets a \
             frame but no lane waits. The second is false on every lane, so the wave skips its \
             then side and goes straight to the `else` with all eight lanes.",
            UNIFORM_IF,
            vec![2; 8],
        ),
        lesson(
            "if-else",
            "If / else divergence",
            "An `if` splits the wave: lanes 0-2 run the then side while lanes 3-7 wait, then the \
             roles swap for the else side. At `endif` the frame is popped and all eight lanes run \
             together again. Step through it and watch the mask and the stack.",
            IF_ELSE,
            vec![111, 111, 111, 222, 222, 222, 222, 222],
        ),
        lesson(
            "nested-if",
            "Nested if",
            "The inner `if` splits only the lanes the outer one let through, so the stack holds \
             two frames at once. Lanes 4-7 wait through the whole inner construct for their own \
             else side. Each `endif` pops one frame.",
            NESTED_IF,
            vec![2, 1, 2, 1, 3, 3, 3, 3],
        ),
        lesson(
            "loop-exit",
            "Divergent loop exit",
            "Every lane runs the loop a different number of times. A lane that breaks is parked \
             in the loop frame's break mask; the loop keeps going with fewer lanes, and SIMD \
             efficiency drops with each iteration. All lanes leave together at `endloop`.",
            LOOP_EXIT,
            vec![1, 2, 3, 4, 5, 6, 7, 8],
        ),
        lesson(
            "break-continue",
            "Break vs continue",
            "`continue` parks a lane only for the rest of this iteration: it rejoins at the next \
             one. `break` parks it until the whole loop ends. Watch the continue and break masks \
             of the loop frame fill and empty.",
            BREAK_CONTINUE,
            // Sum of the even i in 1..=lane+2.
            vec![2, 2, 6, 6, 12, 12, 20, 20],
        ),
        lesson(
            "break-in-if",
            "Break inside if",
            "A lane that breaks inside an `if` leaves the loop, not just the `if`: it stays \
             parked at `endif` and skips the rest of the iteration. Each lane stores how many \
             iterations it finished past the check, which equals its lane number.",
            BREAK_IN_IF,
            vec![0, 1, 2, 3, 4, 5, 6, 7],
        ),
        lesson(
            "halt-in-branch",
            "Halt inside a branch",
            "Lanes 0-2 halt inside the `if`: they are done for good, and no frame waits for \
             them. With no lane left on the then side the wave jumps to `endif`, where lanes 3-7 \
             go on alone and overwrite their 1 with a 2.",
            HALT_IN_BRANCH,
            vec![1, 1, 1, 2, 2, 2, 2, 2],
        ),
        lesson(
            "calls",
            "Calls",
            "The first `call` runs the subroutine with all eight lanes; the second is inside a \
             divergent `if`, so only the odd lanes add ten again. The call stack keeps where each \
             `return` goes back to.",
            CALLS,
            vec![10, 20, 10, 20, 10, 20, 10, 20],
        ),
    ]
}
