//! Differential tests against the reference emulator (`wave-emu` 0.1.2): thousands of seeded
//! random structured programs, plus a few typical kernels written by hand, each run on both
//! machines under the same launch; the whole device memory must come out identical.
//!
//! A second run does the same for our machine in `Behaviour::WaveEmu`, on programs that also use
//! the control flow where wave-emu departs from the spec (`differential/wave_emu.rs`).
//!
//! Environment knobs (all optional):
//! - `WAVE_DIFF_CASES=N`: how many random programs (default 2000);
//! - `WAVE_DIFF_SEED=S`: the first seed (default below); case i uses seed S + i;
//! - `WAVE_DIFF_ONLY=S`: run just the case with seed S and print its program (reproduction);
//! - `WAVE_EMU_DIFF_CASES`, `WAVE_EMU_DIFF_SEED`, `WAVE_EMU_DIFF_ONLY`: the same for the
//!   WaveEmu-mode run (default 2000 cases from its own seed).
#![cfg(not(target_arch = "wasm32"))]

#[path = "differential/gen.rs"]
mod gen;
#[path = "differential/harness.rs"]
mod harness;
#[path = "differential/rng.rs"]
mod rng;
#[path = "differential/wave_emu.rs"]
mod wave_emu;

use gen::{generate, generate_for, Case, Profile};
use harness::{first_difference, run_oracle, run_ours, stats_agree, Launch};
use wave_engine::numbers::parse_u64;

const DEFAULT_CASES: u64 = 2000;
const DEFAULT_SEED: u64 = 0x5eed_0000;
const DEFAULT_WAVE_EMU_SEED: u64 = 0xe3a1_0000;

fn env_u64(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    Some(parse_u64(&text).unwrap_or_else(|e| panic!("{name}={text}: {e}")))
}

fn launch_of(case: &Case) -> Launch {
    Launch {
        grid: case.grid,
        workgroup: case.workgroup,
        wave_width: case.wave_width,
        local_memory: case.local_memory,
        initial_memory: case.initial_memory.clone(),
        initial_registers: case.initial_registers.clone(),
    }
}

fn describe(case: &Case) -> String {
    let only = match case.profile {
        Profile::Spec => "WAVE_DIFF_ONLY",
        Profile::WaveEmu => "WAVE_EMU_DIFF_ONLY",
    };
    format!(
        "seed {seed:#x} (rerun: {only}={seed:#x} cargo test -p wave-engine --test differential)\n\
         grid {:?}, workgroup {:?}, wave width {}, local memory {}, device memory {}, \
         initial registers {:?}\n--- program ---\n{}",
        case.grid,
        case.workgroup,
        case.wave_width,
        case.local_memory,
        case.device_memory,
        case.initial_registers,
        case.source,
        seed = case.seed,
    )
}

/// Runs one generated case on both machines; `Err` carries a full reproduction report. `Ok`
/// says whether every statistic was compared (no path was skipped).
fn check_case(case: &Case) -> Result<bool, String> {
    let launch = launch_of(case);
    let oracle = run_oracle(&case.oracle_source(), &launch)
        .map_err(|error| format!("{error}\n{}", describe(case)))?;
    let ours =
        run_ours(&case.source, &launch).map_err(|error| format!("{error}\n{}", describe(case)))?;
    match first_difference(&ours.memory, &oracle.memory) {
        None if !stats_agree(&ours, &oracle) => Err(format!(
            "the statistics differ (a path was skipped: {}):\nours     {:?}\nwave-emu {:?}\n{}",
            ours.skipped,
            ours.stats,
            oracle.stats,
            describe(case)
        )),
        None => Ok(!ours.skipped),
        Some((offset, mine, theirs, count)) => Err(format!(
            "device memory differs in {count} word(s); first at byte {offset:#x} ({}): \
             ours {mine:#010x}, wave-emu {theirs:#010x}\n{}",
            case.layout.describe(offset),
            describe(case)
        )),
    }
}

#[test]
fn random_structured_programs_match_wave_emu() {
    if let Some(seed) = env_u64("WAVE_DIFF_ONLY") {
        let case = generate(seed);
        println!("{}", describe(&case));
        if let Err(report) = check_case(&case) {
            panic!("{report}");
        }
        return;
    }
    let cases = env_u64("WAVE_DIFF_CASES").unwrap_or(DEFAULT_CASES);
    let first = env_u64("WAVE_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let mut failures: Vec<String> = Vec::new();
    let mut every_statistic = 0;
    for i in 0..cases {
        let case = generate(first.wrapping_add(i));
        match check_case(&case) {
            Ok(compared_all) => every_statistic += u64::from(compared_all),
            Err(report) => {
                // One line per failure as it happens; the whole report of the first at the end.
                eprintln!(
                    "FAIL seed {:#x}: {}",
                    case.seed,
                    report.lines().next().unwrap_or("")
                );
                failures.push(report);
                if failures.len() >= 20 {
                    break;
                }
            }
        }
    }
    if let Some(report) = failures.first() {
        panic!(
            "{} of {cases} cases failed (the run stops at 20); the first:\n{report}",
            failures.len()
        );
    }
    // Where no path was skipped every statistic is compared, instruction counts included (about
    // one case in twenty-five: most programs leave some path to no lane); the guard keeps a
    // generator change from making that comparison vanish.
    println!("{every_statistic} of {cases} cases compared every statistic");
    assert!(
        every_statistic * 50 >= cases,
        "only {every_statistic} of {cases} cases compared every statistic"
    );
}

/// The generator must produce what it promises: programs both tools accept, with loops, ifs,
/// wave ops and atomics in them, over varied launches. Guards against a generator that quietly
/// degenerates into trivial programs (the differential test would still pass).
#[test]
fn generator_covers_the_subset() {
    let mut widths = std::collections::BTreeSet::new();
    let mut partial_waves = 0;
    let mut multi_wave = 0;
    let mut seen = std::collections::BTreeMap::new();
    for i in 0..300 {
        let case = generate(DEFAULT_SEED ^ (i * 7919));
        widths.insert(case.wave_width);
        let threads = case.layout.threads_per_group;
        if !threads.is_multiple_of(case.wave_width) {
            partial_waves += 1;
        }
        if case.layout.waves_per_group > 1 {
            multi_wave += 1;
        }
        for needle in [
            "loop",
            "break p",
            "else",
            "if p",
            "wave_shuffle",
            "wave_ballot",
            "wave_prefix_sum",
            "atomic_",
            "local_atomic_",
            "barrier\n",
            "device_load_u128",
            "@!p",
            "cvt_f32_i32",
            "dadd",
            "hma2",
        ] {
            if case.source.contains(needle) {
                *seen.entry(needle).or_insert(0) += 1;
            }
        }
        for banned in [
            "continue",
            "call ",
            "select",
            "iclamp",
            "fclamp",
            "atomic_cas",
            "@p0 ",
            "bf16",
            "mma_",
            "fcmp_ge",
            "ucmp_g",
        ] {
            assert!(
                !case.source.contains(banned),
                "{banned} generated:\n{}",
                case.source
            );
        }
        assert_eq!(case.source.matches("halt").count(), 1);
    }
    for width in [1, 4, 8, 32] {
        assert!(widths.contains(&width), "width {width} never chosen");
    }
    assert!(partial_waves > 50, "partial waves: {partial_waves}");
    assert!(multi_wave > 50, "multi-wave workgroups: {multi_wave}");
    for (needle, count) in &seen {
        assert!(*count >= 10, "`{needle}` appears in only {count} programs");
    }
    assert_eq!(seen.len(), 15, "some constructs never generated: {seen:?}");
}

/// Runs a hand-written kernel on both machines and returns our device memory.
fn both(source: &str, launch: &Launch) -> Vec<u8> {
    let oracle = run_oracle(source, launch).unwrap_or_else(|e| panic!("{e}"));
    let ours = run_ours(source, launch).unwrap_or_else(|e| panic!("{e}"));
    if let Some((offset, mine, theirs, count)) = first_difference(&ours.memory, &oracle.memory) {
        panic!(
            "{count} word(s) differ; first at byte {offset:#x}: ours {mine:#010x}, wave-emu {theirs:#010x}"
        );
    }
    assert!(
        stats_agree(&ours, &oracle),
        "the statistics (a path was skipped: {}):\nours     {:?}\nwave-emu {:?}",
        ours.skipped,
        ours.stats,
        oracle.stats
    );
    ours.memory
}

fn words(bytes: &[u8], at: usize, n: usize) -> Vec<u32> {
    bytes[at..at + 4 * n]
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn memory_from_words(words: &[u32], total_bytes: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; total_bytes];
    for (i, w) in words.iter().enumerate() {
        bytes[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    bytes
}

#[test]
fn vector_add_kernel_matches() {
    // c[i] = a[i] + b[i] (f32) for 100 elements, a at 0, b at 400, c at 800; 4 groups of 32,
    // threads past the end do nothing.
    let source = "
.kernel vadd
    mov_sr r1, sr_workgroup_id_x
    mov_sr r2, sr_workgroup_size_x
    imul r1, r1, r2
    mov_sr r2, sr_thread_id_x
    iadd r1, r1, r2              ; i
    mov_imm r3, 100
    icmp_lt p1, r1, r3
    if p1
        mov_imm r3, 4
        imul r4, r1, r3          ; byte offset
        device_load_u32 r5, r4
        mov_imm r3, 400
        iadd r6, r4, r3
        device_load_u32 r7, r6
        fadd r8, r5, r7
        mov_imm r3, 800
        iadd r6, r4, r3
        device_store_u32 r6, r8
    endif
    halt
.end
";
    let mut input = Vec::new();
    for i in 0..100u32 {
        input.push((i as f32 * 0.5).to_bits());
    }
    for i in 0..100u32 {
        input.push((1.0f32 - i as f32).to_bits());
    }
    for width in [4, 32] {
        let launch = Launch {
            grid: [4, 1, 1],
            workgroup: [32, 1, 1],
            wave_width: width,
            local_memory: 1024,
            initial_memory: memory_from_words(&input, 1200),
            initial_registers: Vec::new(),
        };
        let memory = both(source, &launch);
        let c = words(&memory, 800, 100);
        for (i, got) in c.iter().enumerate() {
            let expected = (i as f32 * 0.5) + (1.0 - i as f32);
            assert_eq!(f32::from_bits(*got), expected, "c[{i}]");
        }
    }
}

#[test]
fn dot_product_with_atomics_matches() {
    // Integer dot product of two 96-element vectors: each wave reduces its products and its
    // first lane adds the partial sum to a device counter; 3 groups of 32 threads.
    let source = "
.kernel dot
    mov_sr r1, sr_workgroup_id_x
    mov_sr r2, sr_workgroup_size_x
    imul r1, r1, r2
    mov_sr r2, sr_thread_id_x
    iadd r1, r1, r2
    mov_imm r3, 4
    imul r4, r1, r3
    device_load_u32 r5, r4
    mov_imm r3, 384
    iadd r6, r4, r3
    device_load_u32 r7, r6
    imul r8, r5, r7
    wave_reduce_add r9, r8
    mov_sr r10, sr_lane_id
    mov_imm r11, 0
    icmp_eq p1, r10, r11
    mov_imm r12, 768
    @p1 atomic_add r12, r9, .device
    halt
.end
";
    let a: Vec<u32> = (0..96).map(|i| i * 3 + 1).collect();
    let b: Vec<u32> = (0..96).map(|i| 100 - i).collect();
    let expected: u32 = a.iter().zip(&b).map(|(x, y)| x.wrapping_mul(*y)).sum();
    let mut input = a.clone();
    input.extend(&b);
    for width in [1, 4, 8, 32] {
        let launch = Launch {
            grid: [3, 1, 1],
            workgroup: [32, 1, 1],
            wave_width: width,
            local_memory: 64,
            initial_memory: memory_from_words(&input, 772),
            initial_registers: Vec::new(),
        };
        let memory = both(source, &launch);
        assert_eq!(words(&memory, 768, 1), vec![expected], "width {width}");
    }
}

#[test]
fn histogram_kernel_matches() {
    // 16 bins in local memory, filled by local atomics from 200 bytes of input, then merged
    // into the device histogram after a barrier. One group of 50 threads, 4 bytes each.
    let source = "
.kernel histogram
    mov_sr r1, sr_thread_id_x
    mov_imm r2, 4
    imul r3, r1, r2              ; first input byte of this thread
    mov_imm r4, 0                ; k
    mov_imm r5, 1
    mov_imm r6, 15
    loop
        iadd r7, r3, r4
        device_load_u8 r8, r7
        and r8, r8, r6           ; bin
        imul r8, r8, r2
        local_atomic_add r8, r5
        iadd r4, r4, r5
        icmp_ge p1, r4, r2
        break p1
    endloop
    barrier
    mov_imm r9, 16
    icmp_lt p2, r1, r9
    if p2
        imul r10, r1, r2
        local_load_u32 r11, r10
        mov_imm r12, 256
        iadd r12, r12, r10
        atomic_add r12, r11, .device
    endif
    halt
.end
";
    let mut memory = vec![0u8; 256 + 64];
    let mut expected = [0u32; 16];
    let mut state = 12345u32;
    for byte in memory.iter_mut().take(200) {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        *byte = (state >> 16) as u8;
        expected[(*byte & 15) as usize] += 1;
    }
    for width in [4, 8, 32] {
        let launch = Launch {
            grid: [1, 1, 1],
            workgroup: [50, 1, 1],
            wave_width: width,
            local_memory: 64,
            initial_memory: memory.clone(),
            initial_registers: Vec::new(),
        };
        let out = both(source, &launch);
        assert_eq!(words(&out, 256, 16), expected.to_vec(), "width {width}");
    }
}

#[test]
fn block_prefix_sum_matches() {
    // Exclusive prefix sum over a workgroup of 40 threads: per-wave wave_prefix_sum, wave totals
    // through local memory and a barrier, then each thread adds the totals of earlier waves.
    let source = "
.kernel scan
    mov_sr r1, sr_thread_id_x
    mov_imm r2, 4
    imul r3, r1, r2
    device_load_u32 r4, r3
    wave_prefix_sum r5, r4
    wave_reduce_add r6, r4
    mov_sr r7, sr_wave_id
    imul r8, r7, r2
    local_store_u32 r8, r6       ; every lane writes the same wave total
    barrier
    mov_imm r9, 0                ; w
    mov_imm r10, 0               ; offset
    mov_imm r11, 1
    loop
        icmp_ge p1, r9, r7
        break p1
        imul r12, r9, r2
        local_load_u32 r13, r12
        iadd r10, r10, r13
        iadd r9, r9, r11
    endloop
    iadd r5, r5, r10
    mov_imm r14, 512
    iadd r14, r14, r3
    device_store_u32 r14, r5
    halt
.end
";
    let input: Vec<u32> = (0..40).map(|i| (i * 7 + 3) % 11).collect();
    let mut expected = Vec::new();
    let mut sum = 0;
    for v in &input {
        expected.push(sum);
        sum += v;
    }
    for width in [1, 4, 8, 32] {
        let launch = Launch {
            grid: [1, 1, 1],
            workgroup: [40, 1, 1],
            wave_width: width,
            local_memory: 256,
            initial_memory: memory_from_words(&input, 512 + 160),
            initial_registers: Vec::new(),
        };
        let out = both(source, &launch);
        assert_eq!(words(&out, 512, 40), expected, "width {width}");
    }
}

#[test]
fn racy_counter_follows_round_robin_order() {
    // Every wave increments one local counter without atomics, once more than its wave id, and
    // each thread then records what it read last and the final counter. The waves start in
    // lockstep and drop out one by one, so the answer depends on the exact round-robin
    // interleaving of every load and store, which lockstep groups must keep. The break is the
    // last instruction before `endloop`, so both machines run the same instructions per wave.
    let source = "
.kernel race
    mov_sr r0, sr_wave_id
    mov_imm r1, 0                ; the counter's address
    mov_imm r3, 1
    mov_imm r7, 0                ; iterations done
    loop
        local_load_u32 r2, r1
        iadd r2, r2, r3
        local_store_u32 r1, r2   ; counter += 1, racy
        iadd r7, r7, r3
        icmp_gt p1, r7, r0
        break p1
    endloop
    local_load_u32 r4, r1
    mov_sr r5, sr_workgroup_id_x
    mov_sr r6, sr_workgroup_size_x
    imul r5, r5, r6
    mov_sr r6, sr_thread_id_x
    iadd r5, r5, r6
    mov_imm r6, 8
    imul r5, r5, r6
    device_store_u32 r5, r2      ; what this thread's wave last wrote
    iadd r5, r5, r3
    iadd r5, r5, r3
    iadd r5, r5, r3
    iadd r5, r5, r3
    device_store_u32 r5, r4      ; the counter once its loop ended
    halt
.end
";
    for width in [1, 2, 4, 8] {
        let launch = Launch {
            grid: [2, 1, 1],
            workgroup: [16, 1, 1],
            wave_width: width,
            local_memory: 64,
            initial_memory: vec![0; 2 * 16 * 8],
            initial_registers: Vec::new(),
        };
        let memory = both(source, &launch);
        let last_written = words(&memory, 0, 64)
            .chunks(2)
            .map(|pair| pair[0])
            .collect::<Vec<_>>();
        // Sequential waves would count 1, 2, 3, ...: the race must lose increments.
        let waves = 16 / width;
        let increments: u32 = (1..=waves).sum();
        assert!(
            last_written.iter().all(|&value| value < increments),
            "width {width}: no increment was lost: {last_written:?}"
        );
    }
}

#[test]
fn full_wave_loads_match_for_every_address_pattern() {
    // Every lane loads u32, u64 and u128 values from device memory and local memory at an
    // address chosen by `mode` (in r9) from elements of `size` bytes (in r26): 0 all lanes at one
    // address, 1 consecutive elements, 2 a stride of three elements, 3 reversed, 4 every eighth
    // lane at one address and the rest consecutive. With sizes 4, 8 and 16, "consecutive" is
    // contiguous for each access width in turn. Full-wave loads are served eight lanes at a time
    // by pattern, so each mode, size and width (including widths that are not a multiple of
    // eight) must give wave-emu's values. Two more loads write over their own address register
    // (as a destination's first and last word): a block's addresses must be read before its
    // lanes are written.
    let source = "
.kernel patterns
    mov_sr r0, sr_thread_id_x
    mov_imm r1, 16
    mov_imm r2, 0
    mov_imm r3, 1
    icmp_eq p1, r9, r2
    if p1
        mov_imm r4, 48               ; mode 0: one address
    else
        icmp_eq p1, r9, r3
        if p1
            imul r4, r0, r26         ; mode 1: consecutive elements
        else
            mov_imm r5, 2
            icmp_eq p1, r9, r5
            if p1
                mov_imm r5, 3
                imul r5, r5, r26
                imul r4, r0, r5      ; mode 2: a stride of three elements
            else
                mov_imm r5, 3
                icmp_eq p1, r9, r5
                if p1
                    mov_imm r5, 63
                    isub r4, r5, r0
                    imul r4, r4, r26 ; mode 3: reversed
                else
                    mov_imm r5, 7
                    and r6, r0, r5
                    imul r4, r0, r26
                    icmp_eq p1, r6, r2
                    if p1
                        mov_imm r4, 32   ; mode 4: every eighth lane at one address
                    endif
                endif
            endif
        endif
    endif
    ; local memory gets a copy of the first 4 KiB of device memory, lane by lane
    mov_imm r5, 64
    imul r6, r0, r5
    device_load_u128 r10, r6
    local_store_u32 r6, r10
    mov_imm r5, 4
    iadd r8, r6, r5
    local_store_u32 r8, r11
    iadd r8, r8, r5
    local_store_u32 r8, r12
    iadd r8, r8, r5
    local_store_u32 r8, r13
    barrier
    device_load_u32 r10, r4
    device_load_u64 r11, r4
    device_load_u128 r13, r4
    local_load_u32 r17, r4
    local_load_u64 r18, r4
    mov r20, r4
    device_load_u64 r20, r20         ; the address register is the first word written
    mov r25, r4
    device_load_u128 r22, r25        ; ... and the last
    ; results: 16 words per thread at 8192 + 64 * thread
    mov_imm r5, 64
    imul r6, r0, r5
    mov_imm r5, 8192
    iadd r6, r6, r5
    mov_imm r5, 4
    mov_imm r7, 8
    device_store_u32 r6, r10
    iadd r6, r6, r5
    device_store_u64 r6, r11
    iadd r6, r6, r7
    device_store_u128 r6, r13
    iadd r6, r6, r1
    device_store_u32 r6, r17
    iadd r6, r6, r5
    device_store_u64 r6, r18
    iadd r6, r6, r7
    device_store_u64 r6, r20
    iadd r6, r6, r7
    device_store_u128 r6, r22
    halt
.end
";
    let input: Vec<u32> = (0..2048u32)
        .map(|i| i.wrapping_mul(0x9E37_79B9) ^ 0x5A5A_0000)
        .collect();
    for width in [4, 8, 13, 32, 64] {
        for size in [4u32, 8, 16] {
            for mode in 0..5u32 {
                let launch = Launch {
                    grid: [1, 1, 1],
                    workgroup: [64, 1, 1],
                    wave_width: width,
                    local_memory: 4096,
                    initial_memory: memory_from_words(&input, 8192 + 64 * 64),
                    initial_registers: vec![(9, mode), (26, size)],
                };
                let memory = both(source, &launch);
                // Spot-check against the inputs too: thread 5's u32 load, and the last word of
                // its u128 load through its own address register.
                let size = size as usize;
                let address = match mode {
                    0 => 48,
                    1 => 5 * size,
                    2 => 5 * 3 * size,
                    3 => (63 - 5) * size,
                    _ => 5 * size,
                };
                let results = words(&memory, 8192 + 64 * 5, 16);
                let context = format!("width {width}, size {size}, mode {mode}");
                assert_eq!(results[0], input[address / 4], "{context}");
                assert_eq!(results[15], input[address / 4 + 3], "{context}");
            }
        }
    }
}

#[test]
fn full_wave_fma_sends_nan_lanes_to_the_reference_rules() {
    // Full 32- and 64-lane waves take fma's eight-lanes-at-a-time path; a NaN in any lane (a NaN
    // operand, or infinity times zero) must hand the whole instruction to the per-lane rules,
    // which pick the reference's NaN in those lanes and keep the others' single-rounding results.
    // The second fma writes over one of its own operands.
    let source = "
.kernel fma_full_waves
    mov_sr r0, sr_thread_id_x
    mov_imm r9, 4
    imul r4, r0, r9
    mov_imm r8, 256
    device_load_u32 r1, r4
    iadd r5, r4, r8
    device_load_u32 r2, r5
    iadd r6, r5, r8
    device_load_u32 r3, r6
    fma r10, r1, r2, r3
    fma r1, r2, r1, r1
    iadd r7, r6, r8
    device_store_u32 r7, r10
    iadd r7, r7, r8
    device_store_u32 r7, r1
    halt
.end
";
    let special = [
        (7, 0x7FA0_0001u32),     // a signalling NaN in a
        (40, 0xFFC0_0123),       // a quiet NaN in a
        (64 + 13, 0x7F80_0000),  // infinity in b (times a finite a: infinity, not NaN) ...
        (13, 0),                 // ... and now times zero: NaN
        (128 + 50, 0x7F90_0042), // a NaN in c
        // Several NaN operands in one lane: which one comes out is the reference's rule, not
        // whatever the CPU's fused multiply-add picks.
        (20, 0x7FC0_1111),
        (64 + 20, 0x7FC0_2222),
        (128 + 20, 0x7FC0_3333),
        (21, 0xFFC0_4444),
        (128 + 21, 0x7FC0_5555),
        (64 + 22, 0x7F80_6666),
        (128 + 22, 0xFFC0_7777),
    ];
    // How many of the specials apply, and how many first-fma results are then NaN (infinity
    // times a finite a is not; the lanes with several NaN operands make one NaN each).
    for (case, (lanes_with_nan, expected)) in [(0usize, 0usize), (1, 1), (3, 2), (5, 4), (12, 7)]
        .into_iter()
        .enumerate()
    {
        let mut input: Vec<u32> = (0..192u32)
            .map(|i| 0x3F80_0000 + i.wrapping_mul(0x0001_3579) % 0x0080_0000)
            .collect();
        for &(index, value) in &special[..lanes_with_nan] {
            input[index] = value;
        }
        for width in [32, 64] {
            let launch = Launch {
                grid: [1, 1, 1],
                workgroup: [64, 1, 1],
                wave_width: width,
                local_memory: 0,
                initial_memory: memory_from_words(&input, 5 * 256),
                initial_registers: vec![],
            };
            let memory = both(source, &launch);
            let first = words(&memory, 3 * 256, 64);
            let nan_results = first
                .iter()
                .filter(|&&w| w & 0x7FFF_FFFF > 0x7F80_0000)
                .count();
            assert_eq!(nan_results, expected, "case {case}, width {width}");
        }
    }
}

#[test]
fn statistics_count_guarded_accesses_atomics_and_halts_as_the_reference_does() {
    // Lanes 0-2 store to device memory, the others go through local memory; lanes 0-2 add to a
    // device counter and then halt under a guard; an if sends lane 3 one way and the rest the
    // other (no path is left empty, so every figure must agree).
    let source = "
.kernel guarded
    mov_sr r0, sr_lane_id
    mov_imm r1, 3
    icmp_lt p1, r0, r1
    mov_imm r2, 4
    imul r3, r0, r2
    @p1 device_store_u32 r3, r0
    @!p1 local_store_u32 r3, r0
    @!p1 local_load_u32 r4, r3
    mov_imm r5, 256
    @p1 atomic_add r5, r1, .device
    icmp_eq p2, r0, r1
    if p2
        device_store_u16 r3, r1
    else
        iadd r4, r4, r1
    endif
    @p1 halt
    mov_imm r6, 128
    iadd r7, r3, r6
    device_store_u32 r7, r4
    halt
.end
";
    for width in [4, 8] {
        let launch = Launch {
            grid: [2, 1, 1],
            workgroup: [8, 1, 1],
            wave_width: width,
            local_memory: 64,
            initial_memory: vec![0; 512],
            initial_registers: Vec::new(),
        };
        let oracle = run_oracle(source, &launch).unwrap_or_else(|e| panic!("{e}"));
        let ours = run_ours(source, &launch).unwrap_or_else(|e| panic!("{e}"));
        assert!(!ours.skipped, "the kernel leaves no path empty");
        assert_eq!(ours.memory, oracle.memory);
        assert_eq!(ours.stats, oracle.stats, "width {width}");
        assert!(ours.stats.local_loads > 0 && ours.stats.atomic_ops > ours.stats.memory_ops / 4);
        assert!(ours.stats.divergent_branches > 0);
    }
}

#[test]
fn random_programs_with_wave_emu_departures_match_it_in_wave_emu_mode() {
    if let Some(seed) = env_u64("WAVE_EMU_DIFF_ONLY") {
        let case = generate_for(seed, Profile::WaveEmu);
        println!("{}", describe(&case));
        match wave_emu::check(&case, &launch_of(&case)) {
            Ok(seen) => println!("ended {}; departures {:?}", seen.ending, seen.departures),
            Err(report) => panic!("{report}\n{}", describe(&case)),
        }
        return;
    }
    let cases = env_u64("WAVE_EMU_DIFF_CASES").unwrap_or(DEFAULT_CASES);
    let first = env_u64("WAVE_EMU_DIFF_SEED").unwrap_or(DEFAULT_WAVE_EMU_SEED);
    let mut failures: Vec<String> = Vec::new();
    let mut endings = std::collections::BTreeMap::new();
    let mut departures = std::collections::BTreeMap::new();
    let mut departing = 0u64;
    for i in 0..cases {
        let case = generate_for(first.wrapping_add(i), Profile::WaveEmu);
        match wave_emu::check(&case, &launch_of(&case)) {
            Ok(seen) => {
                *endings.entry(seen.ending).or_insert(0u64) += 1;
                departing += u64::from(!seen.departures.is_empty());
                for departure in seen.departures {
                    *departures.entry(departure.name()).or_insert(0u64) += 1;
                }
            }
            Err(report) => {
                eprintln!(
                    "FAIL seed {:#x}: {}",
                    case.seed,
                    report.lines().next().unwrap_or("")
                );
                failures.push(format!("{report}\n{}", describe(&case)));
                if failures.len() >= 20 {
                    break;
                }
            }
        }
    }
    if let Some(report) = failures.first() {
        panic!(
            "{} of {cases} cases failed (the run stops at 20); the first:\n{report}",
            failures.len()
        );
    }
    println!("{cases} cases from seed {first:#x}: endings {endings:?}");
    println!("{departing} cases departed from the spec; cases per departure: {departures:?}");
    // The generator must keep producing what this run is for: most programs finishing (so the
    // statistics are compared), the reference's failures, and its departures.
    let finished = endings.get("finished").copied().unwrap_or(0);
    assert!(
        finished * 2 >= cases,
        "only {finished} of {cases} cases finished"
    );
    if cases >= 1000 {
        for ending in [
            "instruction limit",
            "barrier deadlock",
            "control stack overflow",
        ] {
            let count = endings.get(ending).copied().unwrap_or(0);
            assert!(count * 500 >= cases, "`{ending}` ended only {count} cases");
        }
        for departure in wave_engine::machine::Departure::ALL {
            let name = departure.name();
            if matches!(
                departure,
                wave_engine::machine::Departure::GuardedCallWithNoLane
                    | wave_engine::machine::Departure::ReturnLeftFramesOpen
            ) {
                // Calls are not generated (wave-asm 0.1.2 computes their targets wrongly).
                continue;
            }
            let count = departures.get(name).copied().unwrap_or(0);
            assert!(count * 200 >= cases, "`{name}` seen in only {count} cases");
        }
    }
}

#[test]
fn f64_ops_on_two_nans_give_the_first_as_the_reference_does() {
    // dadd and dmul of two NaN pairs with different payloads: x86 (and so wave-emu) returns the
    // first operand's NaN. Inside the machine's loop the compiler swapped the operands of the
    // multiplication, so the rule is explicit in `numeric::fp64`; both orders are stored.
    let source = "
.kernel nan_pairs
    mov_sr r0, sr_thread_id_x
    mov_imm r9, 16
    imul r9, r0, r9
    mov_imm r2, 0xffffffff       ; r1:r2, a NaN with payload thread id
    mov r1, r0
    mov_imm r4, 0x7ff80000       ; r3:r4, a NaN with payload 0x47800000
    mov_imm r3, 0x47800000
    dmul r10, r1, r3
    dmul r12, r3, r1
    dadd r14, r1, r3
    dadd r16, r3, r1
    device_store_u64 r9, r10
    mov_imm r8, 8
    iadd r9, r9, r8
    device_store_u64 r9, r12
    mov_imm r8, 64
    iadd r9, r9, r8
    device_store_u64 r9, r14
    mov_imm r8, 8
    iadd r9, r9, r8
    device_store_u64 r9, r16
    halt
.end
";
    for width in [1, 4, 32] {
        let launch = Launch {
            grid: [1, 1, 1],
            workgroup: [4, 1, 1],
            wave_width: width,
            local_memory: 0,
            initial_memory: vec![0; 160],
            initial_registers: Vec::new(),
        };
        let memory = both(source, &launch);
        let thread3 = words(&memory, 48, 4);
        assert_eq!(
            thread3,
            vec![3, 0xffffffff, 0x47800000, 0x7ff80000],
            "width {width}"
        );
        let sums = words(&memory, 48 + 72, 4);
        assert_eq!(
            sums,
            vec![3, 0xffffffff, 0x47800000, 0x7ff80000],
            "width {width}"
        );
    }
}
