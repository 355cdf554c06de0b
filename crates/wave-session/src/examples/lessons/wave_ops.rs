//! Lessons on wave-level primitives: shuffles, broadcast, votes, prefix sums and reductions,
//! each also under divergence (what an inactive lane contributes).

use super::lesson;
use crate::examples::{Example, WAVE_OPERATIONS};

const BUTTERFLY: &str = "\
; Summing across the wave with xor shuffles: after exchanges at
; distance 4, 2 and 1 every lane holds the total.
.kernel butterfly
.registers 8
    mov_sr   r0, sr_lane_id
    iadd     r1, r0, r0          ; the values: 2 * lane
    mov_imm  r2, 4
    wave_shuffle_xor r3, r1, r2  ; partner: lane ^ 4
    iadd     r1, r1, r3
    mov_imm  r2, 2
    wave_shuffle_xor r3, r1, r2  ; ?value r3
    iadd     r1, r1, r3
    mov_imm  r2, 1
    wave_shuffle_xor r3, r1, r2
    iadd     r1, r1, r3          ; every lane: the sum, 56
    ; Under divergence a lane reads its partner even when the
    ; partner is inactive.
    mov_imm  r4, 4
    icmp_lt  p1, r0, r4          ; lanes 0-3
    mov_imm  r5, 0
    if p1
        wave_shuffle_xor r5, r0, r4  ; ?mask
    endif
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r1
    mov_imm  r6, 32
    iadd     r7, r7, r6
    device_store_u32 r7, r5
    halt
.end
";

const BROADCAST: &str = "\
; `wave_broadcast` copies one lane's value to every active lane.
; Which lane is read comes from the first active lane's operand.
.kernel broadcast
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 100
    iadd     r1, r1, r0          ; r1 = 100 + lane
    mov_imm  r2, 5
    wave_broadcast r3, r1, r2    ; ?value r3
    mov_imm  r4, 0
    mov_imm  r6, 4
    icmp_ge  p1, r0, r6          ; lanes 4-7
    if p1
        isub    r5, r0, r6       ; lane 4 asks for lane 0
        wave_broadcast r4, r1, r5  ; ?value r4
    endif
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r3
    mov_imm  r6, 32
    iadd     r7, r7, r6
    device_store_u32 r7, r4
    halt
.end
";

const VOTES: &str = "\
; Votes over the active lanes: `wave_ballot` gathers one bit per
; lane, `wave_any` and `wave_all` answer yes or no for them all.
.kernel votes
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 3
    icmp_lt  p1, r0, r1          ; p1: lanes 0-2
    wave_ballot r2, p1           ; ?value r2
    mov_imm  r3, 0               ; any, as 0 or 1
    mov_imm  r4, 0               ; all, as 0 or 1
    mov_imm  r5, 1
    icmp_le  p3, r0, r1          ; lanes 0-3 vote on the then side
    if p3
        wave_any p2, p1          ; some of lanes 0-3 hold p1
        @p2 mov  r3, r5
        wave_all p2, p1          ; ?mask
        @p2 mov  r4, r5
    else
        icmp_gt  p2, r0, r1      ; lanes 4-7 all hold it
        wave_all p2, p2
        @p2 mov  r4, r5
    endif
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r2
    mov_imm  r6, 32
    iadd     r7, r7, r6
    device_store_u32 r7, r3
    iadd     r7, r7, r6
    device_store_u32 r7, r4
    halt
.end
";

const PREFIX_SUM: &str = "\
; `wave_prefix_sum` gives each active lane the sum of the active
; lanes before it. Inside an `if` the waiting lanes add nothing.
.kernel prefix_sum
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 1
    wave_prefix_sum r2, r1       ; ?value r2
    and      r3, r0, r1
    icmp_eq  p1, r3, r1          ; p1: lane is odd
    mov_imm  r4, 0
    if p1
        wave_prefix_sum r4, r0   ; ?value r4
    endif
    mov_imm  r6, 4
    imul     r7, r0, r6
    device_store_u32 r7, r2
    mov_imm  r6, 32
    iadd     r7, r7, r6
    device_store_u32 r7, r4
    halt
.end
";

const SHUFFLES: &str = "\
; `wave_shuffle_up` reads the lane `delta` below, `_down` the lane
; above, `wave_shuffle` any lane by index. Past either end there
; is no lane, and the result is 0.
.kernel shuffles
.registers 12
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 10
    imul     r1, r0, r1          ; r1 = 10 * lane
    mov_imm  r2, 2
    wave_shuffle_up   r3, r1, r2 ; ?value r3
    wave_shuffle_down r4, r1, r2
    mov_imm  r5, 7
    isub     r6, r5, r0          ; r6 = 7 - lane
    wave_shuffle r7, r1, r6      ; the wave reversed
    ; The even lanes read their odd neighbour above, which waits.
    mov_imm  r8, 0
    mov_imm  r9, 1
    and      r10, r0, r9
    icmp_eq  p1, r10, r8         ; p1: lane is even
    if p1
        wave_shuffle_down r8, r1, r9  ; ?mask
    endif
    mov_imm  r10, 4
    imul     r11, r0, r10
    device_store_u32 r11, r3
    mov_imm  r10, 32
    iadd     r11, r11, r10
    device_store_u32 r11, r4
    iadd     r11, r11, r10
    device_store_u32 r11, r7
    iadd     r11, r11, r10
    device_store_u32 r11, r8
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
        wave_reduce_add r4, r0   ; ?value r4
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

pub(super) fn lessons() -> Vec<Example> {
    let lesson = |id, title, explanation, source, expected| {
        lesson(WAVE_OPERATIONS, id, title, explanation, source, 8, expected)
    };
    let then = |first: Vec<u32>, second: Vec<u32>| [first, second].concat();
    vec![
        lesson(
            "butterfly",
            "Shuffle reduction",
            "Each `wave_shuffle_xor` swaps values between lanes a fixed distance apart, and \
             three exchanges sum all eight lanes into every lane. In the divergent `if` at the \
             end lanes 0-3 read lanes 4-7 although those wait: a shuffle reads inactive lanes.",
            BUTTERFLY,
            then(vec![56; 8], vec![4, 5, 6, 7, 0, 0, 0, 0]),
        ),
        lesson(
            "broadcast",
            "Broadcast",
            "`wave_broadcast` takes the lane to read from one operand and gives its value to \
             every active lane. Inside the `if` only lanes 4-7 are active, and the first of \
             them asks for lane 0, so they all get lane 0's value although lane 0 waits.",
            BROADCAST,
            then(vec![105; 8], vec![0, 0, 0, 0, 100, 100, 100, 100]),
        ),
        lesson(
            "votes",
            "Ballot, any and all",
            "`wave_ballot` packs each active lane's predicate into one bit of a number: 0b111 for \
             lanes 0-2. `wave_any` and `wave_all` vote over the active lanes only, so the two \
             sides of the `if` come to different answers for the same question.",
            VOTES,
            [
                vec![7; 8],
                vec![1, 1, 1, 1, 0, 0, 0, 0],
                vec![0, 0, 0, 0, 1, 1, 1, 1],
            ]
            .concat(),
        ),
        lesson(
            "prefix-sum",
            "Prefix sum",
            "An exclusive prefix sum of ones gives each lane its own index. Inside the `if` only \
             the odd lanes take part: lane 5 gets 1 + 3, the lanes before it that are active, \
             and the even lanes contribute nothing.",
            PREFIX_SUM,
            then(vec![0, 1, 2, 3, 4, 5, 6, 7], vec![0, 0, 0, 1, 0, 4, 0, 9]),
        ),
        lesson(
            "shuffles",
            "Shuffle up, down and by index",
            "Shifting up by two leaves lanes 0 and 1 with nothing to read, so they get 0; \
             shifting down does the same to lanes 6 and 7. Reading lane 7 - lane reverses the \
             wave, and in the `if` the even lanes read their odd neighbours, which wait.",
            SHUFFLES,
            [
                vec![0, 0, 0, 10, 20, 30, 40, 50],
                vec![20, 30, 40, 50, 60, 70, 0, 0],
                vec![70, 60, 50, 40, 30, 20, 10, 0],
                vec![10, 0, 30, 0, 50, 0, 70, 0],
            ]
            .concat(),
        ),
        lesson(
            "wave-ops",
            "Reduction and ballot under divergence",
            "Wave operations combine values across the active lanes only. The reduction before \
             the `if` sums all eight lanes; inside it only the odd lanes take part, and the \
             ballot sets bits just for the active lanes whose predicate holds.",
            WAVE_OPS,
            // Three words per lane: the whole-wave sum, the odd lanes' sum, the ballot.
            (0..8u32)
                .flat_map(|lane| {
                    if lane % 2 == 1 {
                        [28, 16, 0b1010_0000]
                    } else {
                        [28, 0, 0]
                    }
                })
                .collect(),
        ),
    ]
}
