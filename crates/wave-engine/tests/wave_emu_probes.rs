//! The control-flow probes of the ISA notes (§4.4, CF1–CF8), and a few more reference rules, run
//! three ways: on our machine in `Behaviour::WaveEmu`, which must give the outputs the notes
//! record for wave-emu; on wave-emu 0.1.2 itself, which must agree with it (memory, failure,
//! every statistic); and on our machine in `Behaviour::Spec`, which must give the spec's results.
//! Each WaveEmu run must also report the departure that explains the difference.
#![cfg(not(target_arch = "wasm32"))]

#[allow(dead_code)]
#[path = "differential/harness.rs"]
mod harness;

use harness::{compile_kernel, oracle_ending, ours_ending, Ended, Ending, Launch};
use wave_engine::instr::{Guard, Op};
use wave_engine::machine::{Behaviour, Departure, Recorded};
use wave_engine::program::Kernel;

/// Enough for every probe that ends; the ones that loop forever (D2) stop here.
const LIMIT: u64 = 10_000;

fn launch(threads: u32, width: u32) -> Launch {
    Launch {
        grid: [1, 1, 1],
        workgroup: [threads, 1, 1],
        wave_width: width,
        local_memory: 256,
        initial_memory: vec![0; 64],
        initial_registers: Vec::new(),
    }
}

fn words(memory: &[u8], count: usize) -> Vec<u32> {
    memory
        .chunks(4)
        .take(count)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// How a probe must end in one mode: the first words of device memory, or a failure.
#[derive(Debug)]
enum Expect<'a> {
    Words(&'a [u32]),
    Fails(&'static str),
}

fn check(mode: &str, ended: &Ended, expect: &Expect) {
    match expect {
        Expect::Words(expected) => {
            assert!(
                matches!(ended.ending, Ending::Finished(_)),
                "{mode}: the run must finish, it ended {:?}",
                ended.ending
            );
            assert_eq!(&words(&ended.memory, expected.len()), expected, "{mode}");
        }
        Expect::Fails(name) => assert_eq!(ended.ending, Ending::Failed(name), "{mode}"),
    }
}

/// Runs `kernel` both ways and the reference on `oracle_source`; returns the WaveEmu run's
/// departures.
fn probe_kernel(
    kernel: &Kernel,
    oracle_source: &str,
    launch: &Launch,
    wave_emu: Expect,
    spec: Expect,
) -> Recorded {
    let (ours, recorded) =
        ours_ending(kernel, launch, Behaviour::WaveEmu, LIMIT).unwrap_or_else(|e| panic!("{e}"));
    check("ours, wave-emu mode", &ours, &wave_emu);
    let reference = oracle_ending(oracle_source, launch, LIMIT).unwrap_or_else(|e| panic!("{e}"));
    check("wave-emu 0.1.2", &reference, &wave_emu);
    assert_eq!(ours.memory, reference.memory, "the whole device memory");
    assert_eq!(ours.ending, reference.ending, "statistics or failure");
    let (spec_run, _) =
        ours_ending(kernel, launch, Behaviour::Spec, LIMIT).unwrap_or_else(|e| panic!("{e}"));
    check("ours, spec mode", &spec_run, &spec);
    recorded
}

fn probe(source: &str, launch: &Launch, wave_emu: Expect, spec: Expect) -> Recorded {
    let kernel = compile_kernel(source).unwrap_or_else(|e| panic!("{e}"));
    probe_kernel(&kernel, source, launch, wave_emu, spec)
}

fn departed(recorded: &Recorded, departure: Departure) -> bool {
    recorded
        .departures
        .iter()
        .any(|event| event.departure == departure)
}

#[test]
fn cf1_lanes_that_break_inside_an_if_come_back_at_endif() {
    let source = "
.kernel brk
    mov_imm r1, 0
    mov_imm r2, 0
    mov_imm r5, 1
    mov_imm r6, 3
    loop
        iadd r1, r1, r5
        icmp_ge p1, r1, r6
        if p1
            break p1
        endif
        iadd r2, r2, r5      ; the broken lane still runs this in wave-emu
    endloop
    mov_imm r7, 0
    device_store_u32 r7, r1
    mov_imm r7, 4
    device_store_u32 r7, r2
    halt
.end
";
    let recorded = probe(
        source,
        &launch(1, 1),
        Expect::Words(&[3, 3]),
        Expect::Words(&[3, 2]),
    );
    assert!(departed(&recorded, Departure::BreakRevived));
    // Without the if around the break, both give 3 and 2: the break is no departure (the
    // increment after it still runs with no lane in wave-emu, which is one).
    let unwrapped = source
        .replace("        if p1\n", "")
        .replace("        endif\n", "");
    let recorded = probe(
        &unwrapped,
        &launch(1, 1),
        Expect::Words(&[3, 2]),
        Expect::Words(&[3, 2]),
    );
    assert!(!departed(&recorded, Departure::BreakRevived));
    assert!(departed(&recorded, Departure::RanWithNoLane));
}

#[test]
fn cf2_a_continue_that_leaves_no_lane_loops_until_the_instruction_limit() {
    // The notes' probe: a never-taken continue placed after the break, reached once the lane has
    // broken.
    let never_taken = "
.kernel cont
    mov_imm r1, 0
    mov_imm r5, 1
    mov_imm r6, 5
    loop
        iadd r1, r1, r5
        icmp_gt p1, r1, r6
        break p1
        icmp_lt p2, r1, r1    ; always false
        continue p2
    endloop
    mov_imm r7, 0
    device_store_u32 r7, r1
    halt
.end
";
    let recorded = probe(
        never_taken,
        &launch(1, 1),
        Expect::Fails("instruction limit"),
        Expect::Words(&[6]),
    );
    assert!(departed(&recorded, Departure::EmptyContinueJumpsBack));
    assert!(departed(&recorded, Departure::RanWithNoLane));
    // A continue every lane takes (docs/spec-departures.md, "uniform continue").
    let uniform = "
.kernel uniform
    mov_imm r1, 0
    mov_imm r2, 0
    mov_imm r5, 1
    mov_imm r6, 3
    loop
        iadd r1, r1, r5
        icmp_ge p1, r1, r6
        break p1
        icmp_eq p2, r1, r1       ; true on every lane
        continue p2
        iadd r2, r2, r5          ; never reached
    endloop
    mov_imm r7, 0
    device_store_u32 r7, r1
    mov_imm r7, 4
    device_store_u32 r7, r2
    halt
.end
";
    let recorded = probe(
        uniform,
        &launch(4, 4),
        Expect::Fails("instruction limit"),
        Expect::Words(&[3, 0]),
    );
    assert!(departed(&recorded, Departure::EmptyContinueJumpsBack));
}

#[test]
fn cf3_a_partial_continue_sends_the_other_lanes_back_to_the_top() {
    // Lane 0 continues in the first iteration, lane 1 never does. Each lane stores r1 and r2 at
    // 8 × lane: wave-emu's 4 3 4 3 (lane 1 lost the increment after the continue in iteration 1),
    // the spec's 4 3 4 4.
    let source = "
.kernel cont2
    mov_sr r0, sr_lane_id
    mov_imm r1, 0
    mov_imm r2, 0
    mov_imm r3, 0
    mov_imm r5, 1
    mov_imm r6, 4
    loop
        iadd r1, r1, r5
        icmp_eq p3, r1, r5
        icmp_eq p2, r0, r3
        @!p3 icmp_ne p2, r0, r0  ; p2: lane 0 in iteration 1
        continue p2
        iadd r2, r2, r5
        icmp_ge p1, r1, r6
        break p1
    endloop
    mov_imm r7, 8
    imul r7, r0, r7
    device_store_u32 r7, r1
    mov_imm r8, 4
    iadd r7, r7, r8
    device_store_u32 r7, r2
    halt
.end
";
    let recorded = probe(
        source,
        &launch(2, 2),
        Expect::Words(&[4, 3, 4, 3]),
        Expect::Words(&[4, 3, 4, 4]),
    );
    let sent_back = recorded
        .departures
        .iter()
        .find(|event| event.departure == Departure::ContinueSentOthersBack)
        .expect("the partial continue is reported");
    assert_eq!(sent_back.mask, 0b10, "lane 1 is the one sent back");
}

/// Lanes 0 and 1 run a halt inside an if; every lane then stores 7 at 4 × lane.
const HALT_INSIDE_IF: &str = "
.kernel haltif
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    mov_imm r8, 2
    shl r9, r0, r8
    mov_imm r3, 7
    icmp_lt p1, r0, r1      ; lanes 0,1
    if p1
        HALT
    endif
    device_store_u32 r9, r3
    halt
.end
";

#[test]
fn cf4_halt_inside_a_divergent_if_ends_the_whole_wave() {
    for halt in ["halt", "@p1 halt", "return"] {
        let source = HALT_INSIDE_IF.replace("HALT", halt);
        let recorded = probe(
            &source,
            &launch(4, 4),
            Expect::Words(&[0, 0, 0, 0]),
            Expect::Words(&[0, 0, 7, 7]),
        );
        let whole = recorded
            .departures
            .iter()
            .find(|event| event.departure == Departure::WholeWaveHalt)
            .unwrap_or_else(|| panic!("`{halt}`: the whole-wave halt is reported"));
        assert_eq!(
            whole.mask, 0b1100,
            "`{halt}`: lanes 2 and 3 would go on in the spec"
        );
    }
}

#[test]
fn cf5_lanes_a_guarded_halt_took_out_come_back_at_endif() {
    let source = "
.kernel haltrev
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    mov_imm r8, 2
    shl r9, r0, r8
    icmp_lt p1, r0, r1           ; lanes 0,1
    icmp_eq p2, r0, r0           ; every lane
    if p2
        @p1 halt
    endif
    mov_imm r3, 7
    device_store_u32 r9, r3
    halt
.end
";
    let recorded = probe(
        source,
        &launch(4, 4),
        Expect::Words(&[7, 7, 7, 7]),
        Expect::Words(&[0, 0, 7, 7]),
    );
    let revived = recorded
        .departures
        .iter()
        .find(|event| event.departure == Departure::PredicatedHaltRevived)
        .expect("the revival is reported");
    assert_eq!(revived.mask, 0b0011);
}

#[test]
fn cf6_a_guarded_if_keeps_its_frame_and_throws_its_mask_away() {
    // `@p1 if p2`, p1 = lanes 0,1 and p2 = lanes 1,2,3: in wave-emu the then side runs on every
    // lane (each stores 1 at 4 × lane) and after `endif` only lanes 0 and 1 are left (they store 1
    // at 16 + 4 × lane). Our front end refuses a guarded `if`, so the kernel is built from the
    // unguarded one with the guard put on by hand (the validator allows it).
    let source = "
.kernel pif
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    mov_imm r1, 0
    icmp_ne p2, r0, r1
    mov_imm r3, 1
    mov_imm r4, 4
    imul r5, r0, r4
    GUARDif p2
        device_store_u32 r5, r3
    endif
    mov_imm r6, 16
    iadd r5, r5, r6
    device_store_u32 r5, r3
    halt
.end
";
    let diagnostics = wave_engine::compile(&source.replace("GUARD", "@p1 ")).diagnostics;
    assert!(
        diagnostics
            .iter()
            .any(|d| d.message.contains("cannot be predicated")),
        "the front end refuses a guarded if: {diagnostics:?}"
    );
    let mut kernel = compile_kernel(&source.replace("GUARD", "")).unwrap();
    let at = kernel.code.iter().position(|i| i.op == Op::If).unwrap();
    kernel.code[at].guard = Guard::P1;
    let recorded = probe_kernel(
        &kernel,
        &source.replace("GUARD", "@p1 "),
        &launch(4, 4),
        Expect::Words(&[1, 1, 1, 1, 1, 1, 0, 0]),
        // Spec mode has no rule for a guarded `if` (the front end never makes one): it reads the
        // predicate operand alone.
        Expect::Words(&[0, 1, 1, 1, 1, 1, 1, 1]),
    );
    assert!(departed(&recorded, Departure::GuardedControlMaskRestored));
}

#[test]
fn cf6_a_guarded_break_records_its_lanes_but_leaves_them_running() {
    // `@p2 break p3` with p2 = lanes 0,1 and p3 = every lane. Each lane counts the body runs after
    // it in r2 and stores r2 at 4 × lane. Spec: lanes 0,1 leave in iteration 1 (0 0 2 2).
    // wave-emu: they stay for the rest of iteration 1, then the loop drops them (1 1 2 2).
    let source = "
.kernel pbreak
    mov_sr r0, sr_lane_id
    mov_imm r1, 0
    mov_imm r2, 0
    mov_imm r5, 1
    mov_imm r6, 3
    mov_imm r7, 2
    icmp_lt p2, r0, r7
    icmp_eq p3, r0, r0
    loop
        iadd r1, r1, r5
        icmp_ge p1, r1, r6
        break p1
        @p2 break p3
        iadd r2, r2, r5
    endloop
    mov_imm r8, 4
    imul r8, r0, r8
    device_store_u32 r8, r2
    halt
.end
";
    let recorded = probe(
        source,
        &launch(4, 4),
        Expect::Words(&[1, 1, 2, 2]),
        Expect::Words(&[0, 0, 2, 2]),
    );
    assert!(departed(&recorded, Departure::GuardedControlMaskRestored));
}

#[test]
fn cf7_p0_is_no_guard() {
    // p0 and p1 both hold on lanes 0,1. `@p0 mov` writes every lane, `@p1 mov` lanes 0,1.
    let source = "
.kernel pzero
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p0, r0, r1
    icmp_lt p1, r0, r1
    mov_imm r4, 111
    @p0 mov r3, r4
    @p1 mov r8, r4
    mov_imm r5, 4
    imul r5, r0, r5
    device_store_u32 r5, r3
    mov_imm r6, 16
    iadd r5, r5, r6
    device_store_u32 r5, r8
    halt
.end
";
    let recorded = probe(
        source,
        &launch(4, 4),
        Expect::Words(&[111, 111, 111, 111, 111, 111, 0, 0]),
        Expect::Words(&[111, 111, 0, 0, 111, 111, 0, 0]),
    );
    let ignored = recorded
        .departures
        .iter()
        .find(|event| event.departure == Departure::P0Unconditional)
        .expect("the ignored guard is reported");
    assert_eq!(ignored.mask, 0b1100);
}

#[test]
fn cf8_a_barrier_no_lane_reaches_still_waits_and_counts() {
    let source = "
.kernel emptybarrier
    mov_sr r0, sr_lane_id
    icmp_ne p1, r0, r0           ; no lane
    if p1
        barrier
    endif
    mov_imm r1, 4
    imul r1, r0, r1
    device_store_u32 r1, r0
    halt
.end
";
    let kernel = compile_kernel(source).unwrap();
    let (ours, recorded) = ours_ending(&kernel, &launch(4, 4), Behaviour::WaveEmu, LIMIT).unwrap();
    let Ending::Finished(wave_emu) = ours.ending else {
        panic!("{:?}", ours.ending)
    };
    assert_eq!(wave_emu.barriers, 1);
    assert!(departed(&recorded, Departure::RanWithNoLane));
    let (spec, _) = ours_ending(&kernel, &launch(4, 4), Behaviour::Spec, LIMIT).unwrap();
    let Ending::Finished(spec_stats) = spec.ending else {
        panic!("{:?}", spec.ending)
    };
    assert_eq!(spec_stats.barriers, 0, "spec mode skips the empty path");
    // And wave-emu agrees on every figure.
    probe(
        source,
        &launch(4, 4),
        Expect::Words(&[0, 1, 2, 3]),
        Expect::Words(&[0, 1, 2, 3]),
    );
}

#[test]
fn cf8_a_barrier_after_a_wave_halted_is_a_deadlock() {
    // Wave 0 halts; wave 1 then waits at the barrier for ever in wave-emu. In the spec the
    // halted wave no longer takes part: wave 1 passes and stores its thread ids.
    let source = "
.kernel deadlock
    mov_sr r0, sr_wave_id
    mov_imm r1, 0
    icmp_eq p1, r0, r1
    @p1 halt                     ; wave 0 ends here
    barrier                      ; wave 1 waits here
    mov_sr r2, sr_thread_id_x
    mov_imm r3, 4
    imul r3, r2, r3
    device_store_u32 r3, r2
    halt
.end
";
    probe(
        source,
        &launch(8, 4),
        Expect::Fails("barrier deadlock"),
        Expect::Words(&[0, 0, 0, 0, 4, 5, 6, 7]),
    );
}

#[test]
fn a_continue_inside_an_if_leaves_the_if_frame_open_until_endloop_fails() {
    // Lane 2 continues in the first iteration, inside an if that every lane took: lanes 0 and 1
    // jump back to the top and leave the if's frame open; the next `endif` closes the frame the
    // next `if` opened, and `endloop` finds the first if's frame on top.
    let source = "
.kernel leak
    mov_sr r0, sr_lane_id
    mov_imm r1, 0
    mov_imm r3, 0
    mov_imm r5, 1
    mov_imm r6, 2
    icmp_eq p1, r0, r0           ; every lane
    loop
        iadd r1, r1, r5
        icmp_lt p3, r1, r0       ; lane 2 in the first iteration
        if p1
            continue p3
        endif
        icmp_ge p2, r1, r6
        break p2
    endloop
    mov_imm r4, 4
    imul r4, r0, r4
    device_store_u32 r4, r1
    halt
.end
";
    // In the spec, lane 2 skips the rest of the first iteration, and every lane leaves when r1
    // reaches 2: every lane stores 2.
    let recorded = probe(
        source,
        &launch(3, 3),
        Expect::Fails("endloop without loop"),
        Expect::Words(&[2, 2, 2]),
    );
    assert!(departed(&recorded, Departure::ContinueSentOthersBack));
}

#[test]
fn a_lone_continue_inside_an_if_overflows_the_frame_stack() {
    // The lane continues inside an if: the jump back leaves the if's frame open with no lane
    // active, and every pass opens one more (D2 with a leak), until the 33rd frame.
    let source = "
.kernel overflow
    mov_imm r1, 0
    mov_imm r5, 1
    icmp_eq p1, r1, r1
    loop
        iadd r1, r1, r5
        if p1
            continue p1
        endif
        break p1
    endloop
    mov_imm r7, 0
    device_store_u32 r7, r1
    halt
.end
";
    probe(
        source,
        &launch(1, 1),
        Expect::Fails("control stack overflow"),
        // The spec: the lane continues for ever, and the budget stops it.
        Expect::Fails("instruction limit"),
    );
}

#[test]
fn an_instruction_past_the_limit_has_run_when_the_run_stops() {
    // wave-emu tests its limit after the instruction: with a limit of 3 the store (the 4th
    // instruction) writes memory before the run fails. In spec mode the limit stops the run
    // before the store.
    let source = "
.kernel limit
    mov_imm r1, 9
    mov_imm r2, 0
    mov_imm r3, 0
    device_store_u32 r2, r1
    halt
.end
";
    let kernel = compile_kernel(source).unwrap();
    let (ours, _) = ours_ending(&kernel, &launch(1, 1), Behaviour::WaveEmu, 3).unwrap();
    let reference = oracle_ending(source, &launch(1, 1), 3).unwrap();
    assert_eq!(ours.ending, Ending::Failed("instruction limit"));
    assert_eq!(reference.ending, ours.ending);
    assert_eq!(words(&reference.memory, 1), vec![9]);
    assert_eq!(ours.memory, reference.memory);
    let (spec, _) = ours_ending(&kernel, &launch(1, 1), Behaviour::Spec, 3).unwrap();
    assert_eq!(spec.ending, Ending::Failed("instruction limit"));
    assert_eq!(words(&spec.memory, 1), vec![0]);
}
