use super::{active_count, lesson, line, session, words};
use crate::{RunProgress, RunState, Session};

#[test]
fn if_else_lesson_steps_three_then_five_then_all_lanes() {
    let mut s = lesson("if-else");
    assert_eq!(s.state(), &RunState::Ready);
    // (active lanes, stack depth, top frame kind) after every step, deduplicated.
    let mut seen: Vec<(usize, usize, Option<&'static str>)> = Vec::new();
    let mut steps = 0;
    while s.state().can_run() && steps < 100 {
        let stack = s.stack();
        let now = (active_count(&s), stack.len(), stack.first().map(|f| f.kind));
        if seen.last() != Some(&now) {
            seen.push(now);
        }
        assert!(s.step());
        steps += 1;
    }
    assert_eq!(s.state(), &RunState::Finished);
    assert_eq!(
        seen,
        vec![
            (8, 0, None),
            (3, 1, Some("if")),
            (5, 1, Some("else")),
            (8, 0, None),
        ]
    );
    assert_eq!(
        words(&s, 0, 8),
        vec![111, 111, 111, 222, 222, 222, 222, 222]
    );
    assert_eq!(
        s.step_count(),
        steps as u64,
        "every step executed one instruction and the end was noticed at once"
    );
}

#[test]
fn stepping_reports_the_current_line_of_the_selected_wave() {
    let mut s = lesson("if-else");
    assert_eq!(s.current_line(), Some(5));
    for _ in 0..3 {
        s.step();
    }
    assert_eq!(s.current_line(), Some(8), "at the `if`");
    s.step();
    assert_eq!(s.current_line(), Some(9), "then side");
    s.step();
    assert_eq!(s.current_line(), Some(10), "the `else`");
}

#[test]
fn breakpoints_stop_runs_and_a_second_run_leaves_them() {
    let mut s = lesson("loop-exit");
    // `iadd r1, r1, r2` inside the loop: hit once per iteration.
    let body = line(&s, "iadd    r1, r1, r2");
    assert!(
        s.breakpoint_mask().is_empty(),
        "nothing to stop at: no mask"
    );
    assert_eq!(s.toggle_breakpoint(body), Some(body));
    assert_eq!(s.breakpoint_mask().iter().filter(|&&b| b).count(), 1);
    assert_eq!(s.run_slice(1000), RunProgress::Paused { line: body });
    assert_eq!(
        s.state(),
        &RunState::Paused {
            at_breakpoint: true
        }
    );
    assert_eq!(
        s.status_text(),
        format!("paused at line {body} (breakpoint)")
    );
    let first = s.step_count();
    assert_eq!(s.run_slice(1000), RunProgress::Paused { line: body });
    assert!(s.step_count() > first, "the second run left the breakpoint");
    assert_eq!(s.stack()[0].iterations, Some(1));
    // Removing it lets the run finish.
    assert_eq!(s.toggle_breakpoint(body), None);
    assert!(s.breakpoint_mask().is_empty());
    assert_eq!(s.run_all(), RunProgress::Finished);
    assert_eq!(words(&s, 0, 8), vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn a_breakpoint_on_a_line_without_code_moves_to_the_next_instruction() {
    let mut s = lesson("loop-exit");
    // Line 1 is a comment; the first instruction is on line 5.
    assert_eq!(s.toggle_breakpoint(1), Some(5));
    assert_eq!(s.breakpoints(), vec![5]);
    assert_eq!(s.toggle_breakpoint(5), None);
    assert!(s.breakpoints().is_empty());
    assert_eq!(s.toggle_breakpoint(500), None, "nothing after the end");
}

#[test]
fn small_slices_do_not_miss_a_breakpoint_between_slices() {
    let mut s = lesson("loop-exit");
    let store = line(&s, "device_store_u32");
    s.toggle_breakpoint(store);
    let mut slices = 0;
    let progress = loop {
        slices += 1;
        match s.run_slice(1) {
            RunProgress::Running => assert_eq!(s.status_text(), "running…"),
            other => break other,
        }
    };
    assert_eq!(progress, RunProgress::Paused { line: store });
    assert!(slices > 10);
    assert_eq!(s.current_line(), Some(store));
}

#[test]
fn one_step_slices_stop_at_a_breakpoint_on_the_first_instruction_of_the_next_workgroup() {
    let mut s = workgroup_ids_session(2);
    s.toggle_breakpoint(3);
    // The run starts on the breakpoint (workgroup 0) and leaves it; workgroup 1's first
    // instruction is the next stop, even though a slice boundary falls right before it.
    let progress = loop {
        match s.run_slice(1) {
            RunProgress::Running => {}
            other => break other,
        }
    };
    assert_eq!(progress, RunProgress::Paused { line: 3 });
    assert_eq!(s.machine().unwrap().workgroup().index(), 1);
    assert_eq!(s.step_count(), 5);
    assert_eq!(s.run_all(), RunProgress::Finished);
    assert_eq!(words(&s, 0, 2), vec![0, 1]);
}

#[test]
fn pause_stops_a_sliced_run() {
    let mut s = lesson("loop-exit");
    assert_eq!(s.run_slice(3), RunProgress::Running);
    s.pause();
    assert_eq!(
        s.state(),
        &RunState::Paused {
            at_breakpoint: false
        }
    );
    assert!(s.status_text().starts_with("paused at line "));
}

#[test]
fn run_to_line_stops_there_without_a_breakpoint() {
    let mut s = lesson("break-in-if");
    let after_if = line(&s, "iadd    r3, r3, r2");
    assert_eq!(s.run_to_line(after_if), Some(after_if));
    assert_eq!(s.run_all(), RunProgress::Paused { line: after_if });
    assert_eq!(
        s.state(),
        &RunState::Paused {
            at_breakpoint: false
        }
    );
    assert_eq!(s.current_line(), Some(after_if));
    // The target is gone: the next run goes to the end.
    assert_eq!(s.run_all(), RunProgress::Finished);
}

#[test]
fn run_to_step_reproduces_a_stepped_state() {
    let mut stepped = lesson("barrier-local");
    stepped.select_wave(1);
    for _ in 0..9 {
        stepped.step();
    }
    let n = stepped.step_count();
    let mut replay = lesson("barrier-local");
    replay.run_to_step(n);
    assert_eq!(replay.step_count(), n);
    replay.select_wave(1);
    let (a, b) = (stepped.machine().unwrap(), replay.machine().unwrap());
    assert_eq!(a.workgroup().waves(), b.workgroup().waves());
    assert_eq!(a.workgroup().local(), b.workgroup().local());
    assert_eq!(stepped.current_line(), replay.current_line());
}

#[test]
fn stepping_a_wave_waiting_at_a_barrier_runs_the_other_wave() {
    let mut s = lesson("barrier-local");
    let mut steps = 0;
    while s.stats(None).barriers == 0 && steps < 40 {
        assert!(s.step());
        steps += 1;
    }
    assert_eq!(s.stats(None).barriers, 1);
    let kinds: Vec<&str> = s.last_events().iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&"barrier-release"), "{kinds:?}");
    // Stepping wave 0 alone got both waves to the barrier: wave 1 ran too.
    s.select_wave(1);
    assert!(
        s.current_line() > Some(12),
        "wave 1 is past the barrier on line 12"
    );
}

#[test]
fn select_wave_and_lane_check_their_range() {
    let mut s = lesson("barrier-local");
    assert_eq!(s.wave_count(), 2);
    assert!(s.select_wave(1));
    assert!(!s.select_wave(2));
    assert_eq!(s.selection().wave, 1);
    assert!(s.select_lane(7));
    assert!(!s.select_lane(8));
    assert_eq!(s.selection().lane, 7);
}

/// A grid of `workgroups` one-wave workgroups, each storing its id at 4 × id.
fn workgroup_ids_session(workgroups: u32) -> Session {
    let source = "\
.kernel ids
.registers 4
    mov_sr r0, sr_workgroup_id_x
    mov_imm r1, 4
    imul r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";
    let mut s = session(source, 4, 4);
    let mut form = s.form().clone();
    form.grid = workgroups.to_string();
    s.set_form(form);
    s
}

#[test]
fn select_workgroup_runs_forward_and_back() {
    let mut s = workgroup_ids_session(3);
    assert_eq!(s.workgroup_count(), 3);
    s.select_workgroup(2).unwrap();
    assert_eq!(s.selection().workgroup, 2);
    assert_eq!(s.machine().unwrap().workgroup().id(), [2, 0, 0]);
    assert_eq!(
        s.current_line(),
        Some(3),
        "at the start of workgroup 2: none of its instructions has run"
    );
    assert_eq!(
        s.step_count(),
        10,
        "workgroups 0 and 1 ran 5 instructions each"
    );
    s.select_workgroup(1).unwrap();
    assert_eq!(s.selection().workgroup, 1);
    assert_eq!(s.step_count(), 5, "workgroup 0 ran, workgroup 1 not yet");
    assert!(s.step(), "stepping runs workgroup 1's first instruction");
    assert_eq!(s.current_line(), Some(4));
    assert_eq!(
        s.select_workgroup(3).unwrap_err(),
        "workgroup 3 does not exist: the grid has 3"
    );
    assert_eq!(s.run_all(), RunProgress::Finished);
    assert_eq!(words(&s, 0, 3), vec![0, 1, 2]);
}

#[test]
fn editing_the_source_resets_the_machine_and_keeps_breakpoints() {
    let mut s = lesson("if-else");
    s.toggle_breakpoint(9);
    s.step();
    s.step();
    assert_eq!(s.step_count(), 2);
    let edited = s.source().replace("111", "112");
    s.set_source(&edited);
    assert_eq!(s.step_count(), 0);
    assert_eq!(s.state(), &RunState::Ready);
    assert_eq!(s.breakpoints(), vec![9]);
    assert_eq!(s.run_all(), RunProgress::Paused { line: 9 });
}

#[test]
fn commands_do_nothing_while_the_source_has_errors() {
    let mut s = lesson("if-else");
    let good_kernels = s.kernel_names();
    s.set_source(".kernel broken\n    iadd r1, r2\n    halt\n.end\n");
    assert!(matches!(s.state(), RunState::SourceErrors(1)));
    assert!(!s.step());
    assert_eq!(s.run_slice(100), RunProgress::Idle);
    assert!(s.lanes().is_empty());
    assert_eq!(
        s.kernel_names(),
        good_kernels,
        "the last good program is kept"
    );
}
