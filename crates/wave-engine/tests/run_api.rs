//! The run API the playground drives: breakpoints (including on a run's first instruction and
//! across workgroup boundaries), leaving a breakpoint, entering a workgroup without running it.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::machine::{Event, EventKind, LaunchConfig, Machine, NoEvents, Stop};

const IDS: &str = "\
.kernel ids
    mov_sr r0, sr_workgroup_id_x
    mov_imm r1, 4
    imul r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";

fn machine(grid: u32) -> Machine {
    launch(IDS, grid, 4, 0)
}

/// `source`'s first kernel on `grid` workgroups of `threads` threads in 4-lane waves, 64 bytes of
/// zeroed device memory, with an instruction budget (0: none).
fn launch(source: &str, grid: u32, threads: u32, max_instructions: u64) -> Machine {
    let program = wave_engine::compile(source).program.expect("compiles");
    let config = LaunchConfig {
        grid: [grid, 1, 1],
        workgroup: [threads, 1, 1],
        wave_width: 4,
        device_memory: 64,
        max_instructions,
        ..LaunchConfig::default()
    };
    Machine::new(&program.kernels[0], &config).expect("valid launch")
}

/// Device memory as little-endian 32-bit words.
fn words(m: &Machine) -> Vec<u32> {
    m.device()
        .bytes()
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

fn breakpoint_at(pc: usize) -> Vec<bool> {
    let mut breakpoints = vec![false; 5];
    breakpoints[pc] = true;
    breakpoints
}

#[test]
fn a_run_stops_before_its_very_first_instruction_when_it_is_a_breakpoint() {
    let mut m = machine(1);
    let at_start = breakpoint_at(0);
    assert_eq!(
        m.run(100, &at_start, &mut NoEvents),
        Stop::Breakpoint { wave: 0, pc: 0 }
    );
    assert_eq!(m.stats().wave_instructions, 0);
    // Parked there: the next run goes on.
    assert_eq!(m.run(100, &at_start, &mut NoEvents), Stop::Finished);
    assert_eq!(m.stats().wave_instructions, 5);
}

#[test]
fn leave_breakpoint_lets_a_run_start_on_a_breakpoint() {
    let mut m = machine(1);
    m.leave_breakpoint(&mut NoEvents);
    assert_eq!(m.run(100, &breakpoint_at(0), &mut NoEvents), Stop::Finished);
}

#[test]
fn one_step_slices_stop_at_a_breakpoint_on_the_next_workgroups_first_instruction() {
    let mut m = machine(3);
    let at_start = breakpoint_at(0);
    m.leave_breakpoint(&mut NoEvents);
    let mut slices = 0;
    let stop = loop {
        slices += 1;
        match m.run(1, &at_start, &mut NoEvents) {
            Stop::SliceUsed => {}
            other => break other,
        }
    };
    assert_eq!(stop, Stop::Breakpoint { wave: 0, pc: 0 });
    assert_eq!(m.workgroup().index(), 1);
    assert_eq!(m.stats().wave_instructions, 5);
    assert_eq!(slices, 6, "five slices ran workgroup 0, the sixth stopped");
}

#[test]
fn run_to_workgroup_enters_it_without_running_any_of_it() {
    let mut m = machine(3);
    assert_eq!(m.run_to_workgroup(2, 1_000, &mut NoEvents), Ok(()));
    assert_eq!(m.workgroup().index(), 2);
    assert_eq!(m.workgroup().executed(), 0);
    assert_eq!(m.workgroup().waves()[0].pc(), 0);
    assert_eq!(m.stats().wave_instructions, 10);
    // A small allowance asks to be called again; it never overshoots into the workgroup.
    let mut m = machine(3);
    assert_eq!(
        m.run_to_workgroup(2, 3, &mut NoEvents),
        Err(Stop::SliceUsed)
    );
    while m.run_to_workgroup(2, 3, &mut NoEvents) == Err(Stop::SliceUsed) {}
    assert_eq!(m.workgroup().executed(), 0);
    assert_eq!(m.stats().wave_instructions, 10);
    assert_eq!(
        m.run_to_workgroup(7, 100, &mut NoEvents),
        Err(Stop::Finished)
    );
}

#[test]
fn the_portable_loop_and_the_cpu_loop_agree_on_every_word() {
    let mut fast = machine(3);
    let mut portable = machine(3);
    portable.use_portable_loop();
    assert_eq!(fast.run_to_end(), Stop::Finished);
    assert_eq!(portable.run_to_end(), Stop::Finished);
    assert_eq!(fast.device().bytes(), portable.device().bytes());
    assert_eq!(
        &fast.device().bytes()[..12],
        &[0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0]
    );
    assert_eq!(fast.stats(), portable.stats());
}

#[test]
fn leaving_from_the_end_of_a_workgroup_still_stops_at_the_next_ones_first_breakpoint() {
    let mut m = machine(2);
    // Run workgroup 0 to its end: the machine shows it finished, workgroup 1 not entered yet.
    assert_eq!(m.run(5, &[], &mut NoEvents), Stop::SliceUsed);
    assert_eq!(m.workgroup().index(), 0);
    assert!(m.workgroup().is_done());
    m.leave_breakpoint(&mut NoEvents);
    assert_eq!(
        m.run(100, &breakpoint_at(0), &mut NoEvents),
        Stop::Breakpoint { wave: 0, pc: 0 }
    );
    assert_eq!(m.workgroup().index(), 1);
    assert_eq!(m.stats().wave_instructions, 5);
}

#[test]
fn a_finished_workgroup_on_view_counts_as_reached() {
    let mut m = machine(2);
    assert_eq!(m.run(5, &[], &mut NoEvents), Stop::SliceUsed);
    assert_eq!(m.run_to_workgroup(0, 100, &mut NoEvents), Ok(()));
    assert_eq!(m.workgroup().index(), 0, "still showing workgroup 0");
}

#[test]
fn an_empty_allowance_reports_a_finished_or_trapped_machine_as_such() {
    let mut m = machine(1);
    assert_eq!(m.run(0, &[], &mut NoEvents), Stop::SliceUsed);
    assert_eq!(m.run_to_end(), Stop::Finished);
    assert_eq!(m.run(0, &[], &mut NoEvents), Stop::Finished);
}

/// Three waves in lockstep through six instructions that keep them together (register-only ones,
/// a load and a store): the machine may run such a stretch in one pass, but never past a
/// breakpoint inside it, the step allowance or the budget.
const STRETCH: &str = "\
.kernel stretch
    mov_sr r0, sr_thread_id_x
    mov_imm r1, 4
    imul r2, r0, r1
    device_load_u32 r3, r2
    iadd r3, r3, r1
    device_store_u32 r2, r3
    halt
.end
";

fn stretch_machine(max_instructions: u64) -> Machine {
    launch(STRETCH, 1, 12, max_instructions)
}

fn pcs(m: &Machine) -> Vec<u32> {
    m.workgroup().waves().iter().map(|w| w.pc()).collect()
}

#[test]
fn a_run_stops_at_a_breakpoint_inside_a_lockstep_stretch() {
    let mut m = stretch_machine(0);
    let mut breakpoints = vec![false; 7];
    breakpoints[4] = true;
    assert_eq!(
        m.run(1000, &breakpoints, &mut NoEvents),
        Stop::Breakpoint { wave: 0, pc: 4 }
    );
    assert_eq!(
        pcs(&m),
        [4, 4, 4],
        "every wave stands before the breakpoint"
    );
    assert_eq!(m.stats().wave_instructions, 12);
    assert_eq!(m.stats().per_pc[3].count, 3);
    assert_eq!(m.stats().per_pc[4].count, 0);
    // Each of the other waves stops there too, then the run goes on to the end.
    for wave in 1..3 {
        assert_eq!(
            m.run(1000, &breakpoints, &mut NoEvents),
            Stop::Breakpoint { wave, pc: 4 }
        );
    }
    assert_eq!(m.run(1000, &breakpoints, &mut NoEvents), Stop::Finished);
    let words = words(&m);
    assert_eq!(
        words[..12],
        [4; 12],
        "each thread added 4 to its zeroed word"
    );
}

#[test]
fn a_step_allowance_ending_inside_a_lockstep_stretch_leaves_round_robin_state() {
    // 3 waves x 2 instructions, then one more pick: wave 0 runs the third instruction alone.
    let mut m = stretch_machine(0);
    assert_eq!(m.run(7, &[], &mut NoEvents), Stop::SliceUsed);
    assert_eq!(pcs(&m), [3, 2, 2]);
    assert_eq!(m.workgroup().next_pick(), 1);
    assert_eq!(m.stats().per_pc[2].count, 1);
}

#[test]
fn the_budget_traps_inside_a_lockstep_stretch_at_the_exact_instruction() {
    let mut m = stretch_machine(10);
    match m.run_to_end() {
        Stop::Trap(trap) => {
            assert_eq!(
                (trap.wave, trap.pc),
                (1, 3),
                "the 11th pick: wave 1 at pc 3"
            );
        }
        other => panic!("expected the budget to trap, got {other:?}"),
    }
    assert_eq!(m.stats().wave_instructions, 10);
    assert_eq!(pcs(&m), [4, 3, 3]);
}

/// Three waves through a loop whose lanes leave at different iterations (1, 2 or 3 trips): the
/// workgroup stays in lockstep through whole iterations, `endloop` included, until a `break`
/// takes lanes out.
const LOOPS: &str = "\
.kernel loops
    mov_sr r0, sr_thread_id_x
    mov_imm r1, 3
    imod r2, r0, r1
    mov_imm r3, 1
    iadd r2, r2, r3
    mov_imm r1, 0
    loop
        icmp_ge p0, r1, r2
        break p0
        iadd r1, r1, r3
    endloop
    mov_imm r3, 4
    imul r4, r0, r3
    device_store_u32 r4, r1
    halt
.end
";

fn loops_machine() -> Machine {
    launch(LOOPS, 1, 12, 0)
}

#[test]
fn loop_iterations_in_lockstep_give_the_events_statistics_and_memory_of_single_steps() {
    let mut whole = loops_machine();
    let mut whole_events: Vec<Event> = Vec::new();
    assert_eq!(whole.run(u64::MAX, &[], &mut whole_events), Stop::Finished);
    let mut stepped = loops_machine();
    let mut stepped_events: Vec<Event> = Vec::new();
    while stepped.run(1, &[], &mut stepped_events) == Stop::SliceUsed {}
    assert_eq!(whole_events, stepped_events);
    assert_eq!(whole.stats(), stepped.stats());
    assert_eq!(whole.device().bytes(), stepped.device().bytes());
    let iterations = whole_events
        .iter()
        .filter(|e| e.kind == EventKind::Iterate)
        .count();
    assert_eq!(iterations, 9, "three waves, each iterating three times");
    let trips = words(&whole);
    assert_eq!(trips[..12], [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]);
}

#[test]
fn a_breakpoint_inside_a_loop_body_stops_every_iteration_of_a_lockstep_workgroup() {
    let mut m = loops_machine();
    let mut breakpoints = vec![false; 16];
    breakpoints[9] = true; // `iadd r1, r1, r3`, the body's last instruction
    let mut stops = 0;
    loop {
        match m.run(u64::MAX, &breakpoints, &mut NoEvents) {
            Stop::Breakpoint { pc: 9, .. } => stops += 1,
            Stop::Finished => break,
            other => panic!("unexpected stop {other:?}"),
        }
    }
    // Every wave has lanes of 1, 2 and 3 trips, so each reaches the body's end in 3 iterations
    // and stops there each time: 3 waves x 3.
    assert_eq!(stops, 9);
}
