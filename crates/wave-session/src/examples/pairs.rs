//! Lesson pairs: two runs of the same computation, opened side by side in compare mode. In each
//! pair run A is the obvious way and run B a rewrite (or another launch) that ends with the same
//! device memory, so the comparison table shows only what the rewrite changed.

use super::{small_form, Example};

/// Two runs to compare: a lesson opened straight in compare mode.
#[derive(Clone, Debug, PartialEq)]
pub struct ComparePair {
    /// Stable identifier (for menus and links).
    pub id: &'static str,
    /// Menu text.
    pub title: &'static str,
    /// Two to four sentences: what to look for in the table and the lanes, naming the numbers
    /// that should differ.
    pub explanation: &'static str,
    /// Run A, listed under [`COMPARE_TOPIC`].
    pub a: Example,
    /// Run B, listed under [`COMPARE_TOPIC`]; its device memory ends as run A's does.
    pub b: Example,
}

/// The topic both runs of every pair are filed under.
pub const COMPARE_TOPIC: &str = "Two runs compared";

const BRANCH: &str = "\
; One Collatz step per thread: 3n + 1 for odd n, n / 2 for even
; n. The `if` splits every wave into its odd and its even lanes.
.kernel collatz_branch
.registers 8
    mov_sr   r0, sr_thread_id_x  ; n
    mov_imm  r1, 1
    and      r2, r0, r1
    icmp_eq  p1, r2, r1          ; p1: n is odd
    if p1
        mov_imm r3, 3
        imul    r4, r0, r3
        iadd    r4, r4, r1       ; odd lanes: 3n + 1
    else
        shr     r4, r0, r1       ; even lanes: n / 2
    endif
    mov_imm  r5, 4
    imul     r6, r0, r5          ; byte address = n * 4
    device_store_u32 r6, r4
    halt
.end
";

const SELECT: &str = "\
; One Collatz step per thread, without a branch: every lane works
; out both answers and `select` keeps the one its n needs.
.kernel collatz_select
.registers 8
    mov_sr   r0, sr_thread_id_x  ; n
    mov_imm  r1, 1
    and      r2, r0, r1
    icmp_eq  p1, r2, r1          ; p1: n is odd
    mov_imm  r3, 3
    imul     r4, r0, r3
    iadd     r4, r4, r1          ; 3n + 1, on every lane
    shr      r5, r0, r1          ; n / 2, on every lane
    select   r4, p1, r4, r5      ; odd: 3n + 1, even: n / 2
    mov_imm  r5, 4
    imul     r6, r0, r5          ; byte address = n * 4
    device_store_u32 r6, r4
    halt
.end
";

const INTERLEAVED: &str = "\
; Sum of 1..32 in local memory, interleaved addressing: at stride
; s the threads whose id is a multiple of 2s add in the slot s
; above their own. The working threads spread out, so every wave
; keeps running with fewer and fewer lanes.
.kernel reduce_interleaved
.registers 12
    mov_sr   r0, sr_thread_id_x
    mov_imm  r1, 1
    iadd     r2, r0, r1          ; the value: id + 1
    mov_imm  r3, 4
    imul     r4, r0, r3          ; my slot: id * 4
    local_store_u32 r4, r2
    barrier
    mov_imm  r5, 1               ; s
    mov_imm  r6, 32              ; threads in the workgroup
    mov_imm  r7, 0
    loop
        iadd    r8, r5, r5       ; 2s
        imod    r9, r0, r8
        icmp_eq p1, r9, r7       ; p1: id % 2s == 0
        if p1
            imul    r10, r5, r3
            iadd    r10, r4, r10 ; the slot s above mine
            local_load_u32 r11, r10
            local_load_u32 r2, r4
            iadd    r2, r2, r11
            local_store_u32 r4, r2
        endif
        barrier                  ; every add of this stride is done
        mov     r5, r8           ; s = 2s
        icmp_ge p2, r5, r6
        break   p2
    endloop
    icmp_eq  p3, r0, r7          ; thread 0 holds the sum
    if p3
        local_load_u32 r2, r4
        device_store_u32 r4, r2
    endif
    halt
.end
";

const SEQUENTIAL: &str = "\
; Sum of 1..32 in local memory, sequential addressing: at stride
; s the threads below s add in the slot s above their own. The
; working threads stay together, so whole waves drop out at once.
.kernel reduce_sequential
.registers 12
    mov_sr   r0, sr_thread_id_x
    mov_imm  r1, 1
    iadd     r2, r0, r1          ; the value: id + 1
    mov_imm  r3, 4
    imul     r4, r0, r3          ; my slot: id * 4
    local_store_u32 r4, r2
    barrier
    mov_imm  r5, 16              ; s: half the workgroup
    mov_imm  r7, 0
    loop
        icmp_lt p1, r0, r5       ; p1: id < s
        if p1
            imul    r10, r5, r3
            iadd    r10, r4, r10 ; the slot s above mine
            local_load_u32 r11, r10
            local_load_u32 r2, r4
            iadd    r2, r2, r11
            local_store_u32 r4, r2
        endif
        barrier                  ; every add of this stride is done
        shr     r5, r5, r1       ; s = s / 2
        icmp_eq p2, r5, r7
        break   p2
    endloop
    icmp_eq  p3, r0, r7          ; thread 0 holds the sum
    if p3
        local_load_u32 r2, r4
        device_store_u32 r4, r2
    endif
    halt
.end
";

const TRIPS_VARY: &str = "\
; Each lane adds 1 + 2 + ... + its lane id, going round the loop
; once per term: lane 0 leaves at once, lane 7 after seven turns.
.kernel trips_vary
.registers 8
    mov_sr   r0, sr_thread_id_x
    mov_sr   r1, sr_lane_id      ; this lane's trip count
    mov_imm  r2, 0               ; i
    mov_imm  r3, 0               ; sum
    mov_imm  r4, 1
    loop
        icmp_ge p1, r2, r1       ; done after lane-id turns
        break   p1
        iadd    r2, r2, r4
        iadd    r3, r3, r2       ; sum += i
    endloop
    mov_imm  r5, 4
    imul     r6, r0, r5          ; byte address = id * 4
    device_store_u32 r6, r3
    halt
.end
";

const TRIPS_UNIFORM: &str = "\
; Each lane adds 1 + 2 + ... + its lane id, but every lane goes
; round seven times, the most any lane needs; a guard leaves out
; the terms past a lane's own count.
.kernel trips_uniform
.registers 8
    mov_sr   r0, sr_thread_id_x
    mov_sr   r1, sr_lane_id      ; this lane's term count
    mov_imm  r2, 0               ; i
    mov_imm  r3, 0               ; sum
    mov_imm  r4, 1
    mov_imm  r5, 7               ; the largest lane id in a wave of 8
    loop
        icmp_ge p2, r2, r5       ; the same on every lane
        break   p2
        iadd    r2, r2, r4
        icmp_le p1, r2, r1       ; p1: i is one of my terms
        @p1 iadd r3, r3, r2      ; sum += i, where p1
    endloop
    mov_imm  r5, 4
    imul     r6, r0, r5          ; byte address = id * 4
    device_store_u32 r6, r3
    halt
.end
";

const SPLIT_AT_TWELVE: &str = "\
; Threads 0-11 square their id, the others add 100 to it. Where
; the wave boundaries fall decides which waves split at the `if`.
.kernel split_at_twelve
.registers 8
    mov_sr   r0, sr_thread_id_x
    mov_imm  r1, 12
    icmp_lt  p1, r0, r1          ; p1: thread 0-11
    if p1
        imul    r2, r0, r0       ; id * id
    else
        mov_imm r3, 100
        iadd    r2, r0, r3       ; id + 100
    endif
    mov_imm  r4, 4
    imul     r5, r0, r4          ; byte address = id * 4
    device_store_u32 r5, r2
    halt
.end
";

/// One run of a pair: `threads` threads in one workgroup, waves of `width`, 256 bytes of device
/// memory.
fn run(id: &'static str, title: &'static str, source: &str, threads: u32, width: u32) -> Example {
    Example {
        id,
        topic: COMPARE_TOPIC,
        title,
        explanation: "",
        source: source.to_string(),
        form: small_form(threads, width, 256),
        check: None,
        expected: Vec::new(),
    }
}

/// Gives both runs of a pair the explanation and the device memory they end with.
fn pair(
    id: &'static str,
    title: &'static str,
    explanation: &'static str,
    mut a: Example,
    mut b: Example,
    expected: Vec<u32>,
) -> ComparePair {
    for run in [&mut a, &mut b] {
        run.explanation = explanation;
        run.expected = expected.clone();
    }
    ComparePair {
        id,
        title,
        explanation,
        a,
        b,
    }
}

/// Every lesson pair, in menu order.
pub fn compare_pairs() -> Vec<ComparePair> {
    let collatz: Vec<u32> = (0..16u32)
        .map(|n| if n % 2 == 1 { 3 * n + 1 } else { n / 2 })
        .collect();
    let triangles: Vec<u32> = (0..16u32).map(|t| (t % 8) * (t % 8 + 1) / 2).collect();
    let split: Vec<u32> = (0..32u32)
        .map(|t| if t < 12 { t * t } else { t + 100 })
        .collect();
    vec![
        pair(
            "pair-branch-vs-select",
            "Branch vs select",
            "Both runs take one Collatz step on 16 threads. In A the `if` splits each wave of \
             eight into odd and even lanes, and each side runs while the other waits: its SIMD \
             efficiency stays well below B's, which computes both answers on every lane and \
             keeps one with `select`, in fewer wave-instructions too.",
            run("pair-branch-vs-select-a", "Branch", BRANCH, 16, 8),
            run("pair-branch-vs-select-b", "Select", SELECT, 16, 8),
            collatz,
        ),
        pair(
            "pair-reduction-addressing",
            "Reduction: interleaved vs sequential addressing",
            "Both runs sum 1 to 32 in local memory with 32 threads in four waves and write 528. \
             With interleaved addressing (A) the threads that still add are spread over the \
             waves, so the waves keep issuing the adds with fewer and fewer lanes at work: one in \
             two, then one in four, then one in eight. With sequential addressing (B) they sit \
             together, whole waves skip the `if`, and B issues fewer wave-instructions at a \
             higher SIMD efficiency, with fewer divergent branches.",
            run(
                "pair-reduction-addressing-a",
                "Interleaved addressing",
                INTERLEAVED,
                32,
                8,
            ),
            run(
                "pair-reduction-addressing-b",
                "Sequential addressing",
                SEQUENTIAL,
                32,
                8,
            ),
            vec![528],
        ),
        pair(
            "pair-loop-trip-count",
            "Loop: trip count per lane vs uniform with a guard",
            "Each lane adds up to its lane id. In A lanes leave the loop one by one, so the later \
             turns run with few lanes and SIMD efficiency drops; in B every lane goes round seven \
             times and a guard leaves out the extra terms, so no lane leaves and efficiency reads \
             nearly full. Yet B issues more wave-instructions than A (the guard's compare, every \
             turn): a lane whose guard is off does no more useful work than a lane that has left, \
             and efficiency counts lanes switched on, not lanes doing something.",
            run(
                "pair-loop-trip-count-a",
                "Trip count per lane",
                TRIPS_VARY,
                16,
                8,
            ),
            run(
                "pair-loop-trip-count-b",
                "Uniform loop with a guard",
                TRIPS_UNIFORM,
                16,
                8,
            ),
            triangles,
        ),
        pair(
            "pair-wave-width",
            "Wave width 8 vs 32",
            "The same kernel on 32 threads, launched in waves of 8 (A) and in one wave of 32 (B). \
             In A only the wave of threads 8-15 splits at the `if` while the other three take \
             one side whole, so its SIMD efficiency is higher than B's, whose one wave runs both \
             sides with part of its lanes. But A's four waves issue every shared instruction four \
             times, so A's wave-instructions are several times B's.",
            run("pair-wave-width-a", "Waves of 8", SPLIT_AT_TWELVE, 32, 8),
            run(
                "pair-wave-width-b",
                "One wave of 32",
                SPLIT_AT_TWELVE,
                32,
                32,
            ),
            split,
        ),
    ]
}

/// The lesson pair with `id`.
pub fn compare_pair(id: &str) -> Option<ComparePair> {
    compare_pairs().into_iter().find(|p| p.id == id)
}

/// The run (A or B) of a lesson pair with the id `id`.
pub fn pair_run(id: &str) -> Option<Example> {
    compare_pairs()
        .into_iter()
        .flat_map(|p| [p.a, p.b])
        .find(|run| run.id == id)
}
