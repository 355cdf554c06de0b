//! Two runs compared: measures read from machines, the table's rows, the headline's wording and
//! the device-memory verdict.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::compare::{compare_memory, Comparison, Measure, MemoryVerdict, RunMeasures};
use wave_engine::machine::{LaunchConfig, Machine, Stop};

/// Runs the first kernel of `source` on one workgroup of `threads` threads in waves of `width`.
fn measures(source: &str, threads: u32, width: u32) -> (RunMeasures, Vec<u8>) {
    let program = wave_engine::compile(source).program.expect("compiles");
    let kernel = &program.kernels[0];
    let config = LaunchConfig {
        workgroup: [threads, 1, 1],
        wave_width: width,
        device_memory: 256,
        ..LaunchConfig::default()
    };
    let mut machine = Machine::new(kernel, &config).expect("starts");
    assert_eq!(machine.run_to_end(), Stop::Finished);
    (
        RunMeasures::of(&machine, kernel),
        machine.device().bytes().to_vec(),
    )
}

/// Five instructions, no control flow: every thread stores its id at id*4.
const STRAIGHT: &str = "\
.kernel straight
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 4
    imul    r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";

/// Threads below 2 take the `then` side; every thread reads a word, writes it to local memory, waits
/// at a barrier, reads it back, and stores it.
const SPLIT: &str = "\
.kernel split
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1
        mov_imm r2, 7
    endif
    mov_imm r3, 4
    imul    r4, r0, r3
    device_load_u32 r5, r4
    local_store_u32 r4, r5
    barrier
    local_load_u32 r6, r4
    device_store_u32 r4, r6
    halt
.end
";

fn measures_of(
    wave_instructions: u64,
    active: u64,
    slots: u64,
    divergent: u64,
    depth: u32,
) -> RunMeasures {
    RunMeasures {
        wave_instructions,
        active_lane_instructions: active,
        lane_slots: slots,
        divergent_branches: divergent,
        max_stack_depth: depth,
        barrier_waits: 0,
        memory_reads: 0,
        memory_writes: 0,
        finished: true,
    }
}

#[test]
fn straight_code_is_counted_by_hand() {
    // Two waves of 8 lanes, five instructions each, every lane active.
    let (m, _) = measures(STRAIGHT, 16, 8);
    assert_eq!(
        m,
        RunMeasures {
            wave_instructions: 10,
            active_lane_instructions: 80,
            lane_slots: 80,
            divergent_branches: 0,
            max_stack_depth: 0,
            barrier_waits: 0,
            memory_reads: 0,
            memory_writes: 16,
            finished: true,
        }
    );
    assert_eq!(m.simd_efficiency(), 1.0);
}

#[test]
fn a_split_wave_and_memory_traffic_are_counted_by_hand() {
    // One wave of 8 lanes: 14 instructions, of which `mov_imm r2, 7` and the `endif` run with
    // the 2 lanes of the `then` side.
    let (m, _) = measures(SPLIT, 8, 8);
    assert_eq!(m.wave_instructions, 14);
    assert_eq!(m.lane_slots, 112);
    assert_eq!(m.active_lane_instructions, 112 - 2 * 6);
    assert_eq!(m.divergent_branches, 1);
    assert_eq!(m.max_stack_depth, 1);
    assert_eq!(m.memory_reads, 16, "8 device loads and 8 local loads");
    assert_eq!(m.memory_writes, 16, "8 local stores and 8 device stores");
    assert_eq!(m.barrier_waits, 1);
    assert!(m.finished);
}

#[test]
fn measures_of_an_unfinished_run_say_so() {
    let program = wave_engine::compile(STRAIGHT).program.expect("compiles");
    let kernel = &program.kernels[0];
    let mut machine = Machine::new(kernel, &LaunchConfig::default()).expect("starts");
    machine.run(2, &[], &mut wave_engine::machine::NoEvents);
    let m = RunMeasures::of(&machine, kernel);
    assert!(!m.finished);
    assert_eq!(m.wave_instructions, 2);
}

#[test]
fn rows_follow_the_measures_and_mark_what_differs() {
    let a = RunMeasures {
        barrier_waits: 2,
        memory_reads: 64,
        memory_writes: 0,
        ..measures_of(100, 56, 100, 3, 2)
    };
    let b = RunMeasures {
        barrier_waits: 2,
        memory_reads: 64,
        memory_writes: 5,
        ..measures_of(62, 62, 62, 0, 0)
    };
    let rows = Comparison::new(a, b).rows();
    let measures: Vec<Measure> = rows.iter().map(|r| r.measure).collect();
    assert_eq!(measures, Measure::ALL);
    let cells: Vec<(&str, &str, &str, bool)> = rows
        .iter()
        .map(|r| (r.a.as_str(), r.b.as_str(), r.difference.as_str(), r.differs))
        .collect();
    assert_eq!(
        cells,
        [
            ("100", "62", "-38 (-38 %)", true),
            ("56.0%", "100.0%", "+44.0 pp", true),
            ("3", "0", "-3 (-100 %)", true),
            ("2", "0", "-2 (-100 %)", true),
            ("2", "2", "0", false),
            ("64", "64", "0", false),
            ("0", "5", "+5", true),
        ]
    );
    assert_eq!(
        Measure::WaveInstructions.label(),
        "Wave-instructions issued"
    );
    assert_eq!(Measure::DeepestStack.label(), "Deepest divergence stack");
}

#[test]
fn small_differences_keep_a_percentage_and_rounding_never_marks_equal_cells() {
    let a = measures_of(1000, 1000, 3000, 0, 0);
    let b = measures_of(1003, 1000, 3000, 0, 0);
    let rows = Comparison::new(a, b).rows();
    assert_eq!(rows[0].difference, "+3 (+0.3 %)");
    assert_eq!(rows[1].a, "33.3%");
    assert_eq!(rows[1].difference, "0 pp");
    assert!(!rows[1].differs);

    // 1/3 and 1000/3001 differ, but not as shown.
    let b = measures_of(1000, 1000, 3001, 0, 0);
    let rows = Comparison::new(measures_of(1000, 1000, 3000, 0, 0), b).rows();
    assert!(!rows[1].differs);
    let b = measures_of(100_000, 1, 100_000, 0, 0);
    let a = measures_of(100_001, 1, 100_000, 0, 0);
    assert_eq!(Comparison::new(a, b).rows()[0].difference, "-1 (-<0.1 %)");
}

#[test]
fn the_headline_says_fewer_more_or_the_same() {
    let a = measures_of(100, 56, 100, 0, 0);
    let b = measures_of(62, 62, 62, 0, 0);
    assert_eq!(
        Comparison::new(a.clone(), b.clone()).headline(),
        "B issues 38 % fewer wave-instructions; its SIMD efficiency is 100 % against 56 %."
    );
    assert_eq!(
        Comparison::new(b.clone(), a.clone()).headline(),
        "B issues 61 % more wave-instructions; its SIMD efficiency is 56 % against 100 %."
    );
    assert_eq!(
        Comparison::new(a.clone(), a.clone()).headline(),
        "A and B issue the same 100 wave-instructions at the same SIMD efficiency, 56 %."
    );
    let same_count = measures_of(100, 100, 100, 0, 0);
    assert_eq!(
        Comparison::new(a.clone(), same_count).headline(),
        "A and B issue the same 100 wave-instructions; B's SIMD efficiency is 100 % against 56 %."
    );
    let same_efficiency = measures_of(50, 28, 50, 0, 0);
    assert_eq!(
        Comparison::new(a.clone(), same_efficiency).headline(),
        "B issues 50 % fewer wave-instructions; its SIMD efficiency is the same, 56 %."
    );
    // Close efficiencies get a decimal, so the sentence never says "56 % against 56 %".
    let close = measures_of(100, 5640, 10000, 0, 0);
    let closer = measures_of(90, 5630, 10000, 0, 0);
    assert_eq!(
        Comparison::new(close, closer).headline(),
        "B issues 10 % fewer wave-instructions; its SIMD efficiency is 56.3 % against 56.4 %."
    );
    let many = measures_of(1000, 1000, 1000, 0, 0);
    let one_more = measures_of(1001, 1001, 1001, 0, 0);
    assert_eq!(
        Comparison::new(many, one_more).headline(),
        "B issues 1 more wave-instruction (under 1 %); its SIMD efficiency is the same, 100 %."
    );
}

#[test]
fn the_headline_never_divides_by_zero() {
    let none = measures_of(0, 0, 0, 0, 0);
    let some = measures_of(40, 20, 40, 0, 0);
    assert_eq!(
        Comparison::new(none.clone(), none.clone()).headline(),
        "Neither A nor B has issued a wave-instruction."
    );
    assert_eq!(
        Comparison::new(none.clone(), some.clone()).headline(),
        "A has issued no wave-instruction; B issues 40 wave-instructions at a SIMD efficiency of 50 %."
    );
    assert_eq!(
        Comparison::new(some, none.clone()).headline(),
        "B has issued no wave-instruction; A issues 40 wave-instructions at a SIMD efficiency of 50 %."
    );
    let rows = Comparison::new(none.clone(), none).rows();
    assert!(rows.iter().all(|r| !r.differs));
    assert_eq!(rows[1].a, "100.0%");
}

#[test]
fn measured_runs_compare_end_to_end() {
    // The same kernel at two wave widths: the same results, fewer wave-instructions.
    let (narrow, narrow_memory) = measures(STRAIGHT, 16, 4);
    let (wide, wide_memory) = measures(STRAIGHT, 16, 16);
    let comparison = Comparison::new(narrow, wide);
    assert_eq!(comparison.rows()[0].a, "20");
    assert_eq!(comparison.rows()[0].b, "5");
    assert_eq!(
        comparison.headline(),
        "B issues 75 % fewer wave-instructions; its SIMD efficiency is the same, 100 %."
    );
    assert_eq!(
        compare_memory(&narrow_memory, &wide_memory, 4),
        MemoryVerdict::Equal { bytes: 256 }
    );
    // A different kernel stores other values: lanes 0 and 1 of SPLIT store what they read (0).
    let (_, split_memory) = measures(SPLIT, 16, 16);
    let verdict = compare_memory(&narrow_memory, &split_memory, 2);
    assert_eq!(
        verdict,
        MemoryVerdict::Differ {
            first: vec![(4, 1, 0), (8, 2, 0)],
            words: 15,
        }
    );
    assert!(verdict.differs());
}

#[test]
fn memory_verdicts() {
    let a = vec![0u8; 64];
    assert_eq!(
        compare_memory(&a, &a, 3),
        MemoryVerdict::Equal { bytes: 64 }
    );
    assert_eq!(
        compare_memory(&a, &a, 3).sentence(),
        "Results equal: device memory matches (64 bytes)."
    );
    assert_eq!(
        compare_memory(&[], &[], 3),
        MemoryVerdict::Equal { bytes: 0 }
    );
    assert!(!compare_memory(&[], &[], 3).differs());

    let mut b = a.clone();
    b[0x10] = 9;
    b[0x14..0x18].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    b[0x3c] = 1;
    let verdict = compare_memory(&a, &b, 8);
    assert_eq!(
        verdict,
        MemoryVerdict::Differ {
            first: vec![(0x10, 0, 9), (0x14, 0, 0x1234_5678), (0x3c, 0, 1)],
            words: 3,
        }
    );
    assert_eq!(
        verdict.sentence(),
        "Results differ at 3 words: 0x0010 A 0 B 9; 0x0014 A 0 B 305419896; 0x003c A 0 B 1."
    );
    let limited = compare_memory(&a, &b, 1);
    assert_eq!(
        limited,
        MemoryVerdict::Differ {
            first: vec![(0x10, 0, 9)],
            words: 3,
        }
    );
    assert_eq!(
        limited.sentence(),
        "Results differ at 3 words, the first 1: 0x0010 A 0 B 9."
    );
    assert_eq!(
        compare_memory(&a, &b, 0).sentence(),
        "Results differ at 3 words."
    );

    let sizes = compare_memory(&a, &a[..32], 3);
    assert_eq!(sizes, MemoryVerdict::SizesDiffer { a: 64, b: 32 });
    assert!(sizes.differs());
    assert_eq!(
        sizes.sentence(),
        "Results cannot be compared: A has 64 bytes of device memory, B has 32."
    );

    // A last partial word is read as if padded with zeros.
    let verdict = compare_memory(&[1, 2, 3, 4, 5, 6], &[1, 2, 3, 4, 5, 7], 4);
    assert_eq!(
        verdict,
        MemoryVerdict::Differ {
            first: vec![(4, 0x0605, 0x0705)],
            words: 1,
        }
    );
    assert_eq!(
        verdict.sentence(),
        "Results differ at 1 word: 0x0004 A 1541 B 1797."
    );
}

#[test]
fn large_memories_compare_across_chunks() {
    let a = vec![0u8; 4 << 20];
    let mut b = a.clone();
    // A difference on each side of a chunk boundary and one at the very end.
    for address in [4092, 4096, (4 << 20) - 4] {
        b[address] = 1;
    }
    assert_eq!(
        compare_memory(&a, &b, 10),
        MemoryVerdict::Differ {
            first: vec![(4092, 0, 1), (4096, 0, 1), ((4 << 20) - 4, 0, 1)],
            words: 3,
        }
    );
    assert_eq!(
        compare_memory(&a, &a.clone(), 10),
        MemoryVerdict::Equal { bytes: 4 << 20 }
    );
}
