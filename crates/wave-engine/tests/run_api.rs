//! The run API the playground drives: breakpoints (including on a run's first instruction and
//! across workgroup boundaries), leaving a breakpoint, entering a workgroup without running it.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::machine::{LaunchConfig, Machine, NoEvents, Stop};

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
    let program = wave_engine::compile(IDS).program.expect("compiles");
    let config = LaunchConfig {
        grid: [grid, 1, 1],
        workgroup: [4, 1, 1],
        wave_width: 4,
        device_memory: 64,
        ..LaunchConfig::default()
    };
    Machine::new(&program.kernels[0], &config).expect("valid launch")
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
    assert_eq!(m.workgroup().index, 1);
    assert_eq!(m.stats().wave_instructions, 5);
    assert_eq!(slices, 6, "five slices ran workgroup 0, the sixth stopped");
}

#[test]
fn run_to_workgroup_enters_it_without_running_any_of_it() {
    let mut m = machine(3);
    assert_eq!(m.run_to_workgroup(2, 1_000, &mut NoEvents), Ok(()));
    assert_eq!(m.workgroup().index, 2);
    assert_eq!(m.workgroup().executed, 0);
    assert_eq!(m.workgroup().waves[0].pc, 0);
    assert_eq!(m.stats().wave_instructions, 10);
    // A small allowance asks to be called again; it never overshoots into the workgroup.
    let mut m = machine(3);
    assert_eq!(
        m.run_to_workgroup(2, 3, &mut NoEvents),
        Err(Stop::SliceUsed)
    );
    while m.run_to_workgroup(2, 3, &mut NoEvents) == Err(Stop::SliceUsed) {}
    assert_eq!(m.workgroup().executed, 0);
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
    assert_eq!(m.workgroup().index, 0);
    assert!(m.workgroup().is_done());
    m.leave_breakpoint(&mut NoEvents);
    assert_eq!(
        m.run(100, &breakpoint_at(0), &mut NoEvents),
        Stop::Breakpoint { wave: 0, pc: 0 }
    );
    assert_eq!(m.workgroup().index, 1);
    assert_eq!(m.stats().wave_instructions, 5);
}

#[test]
fn a_finished_workgroup_on_view_counts_as_reached() {
    let mut m = machine(2);
    assert_eq!(m.run(5, &[], &mut NoEvents), Stop::SliceUsed);
    assert_eq!(m.run_to_workgroup(0, 100, &mut NoEvents), Ok(()));
    assert_eq!(m.workgroup().index, 0, "still showing workgroup 0");
}

#[test]
fn an_empty_allowance_reports_a_finished_or_trapped_machine_as_such() {
    let mut m = machine(1);
    assert_eq!(m.run(0, &[], &mut NoEvents), Stop::SliceUsed);
    assert_eq!(m.run_to_end(), Stop::Finished);
    assert_eq!(m.run(0, &[], &mut NoEvents), Stop::Finished);
}
