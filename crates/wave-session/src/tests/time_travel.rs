use super::{lesson, line, session};
use crate::examples::examples;
use crate::{EventView, FrameView, LaneView, NumberFormat, RunProgress, RunState, Session};

/// Everything the views show that a move in time must reproduce.
#[derive(Debug, PartialEq)]
struct Shown {
    step: u64,
    lanes: Vec<LaneView>,
    stack: Vec<FrameView>,
    status: String,
    events: Vec<EventView>,
    registers: Vec<crate::TableRow>,
    line: Option<u32>,
    state: RunState,
    device: Vec<u8>,
}

fn shown(s: &Session) -> Shown {
    Shown {
        step: s.step_count(),
        lanes: s.lanes(),
        stack: s.stack(),
        status: s.status_text(),
        events: s.last_events(),
        registers: s.register_window(NumberFormat::Hex, 0..usize::MAX, 0..64),
        line: s.current_line(),
        state: *s.state(),
        device: s.machine().expect("machine").device().bytes().to_vec(),
    }
}

/// Every example but the full-size GEMMs, whose millions of steps these tests would keep a
/// checkpoint of each.
fn lesson_ids() -> Vec<&'static str> {
    examples()
        .iter()
        .map(|e| e.id)
        .filter(|id| !id.starts_with("gemm"))
        .collect()
}

#[test]
fn stepping_back_shows_every_earlier_step_as_it_was_shown_for_every_lesson() {
    for id in lesson_ids() {
        for wave in [0, 1] {
            let mut s = lesson(id);
            if !s.select_wave(wave) {
                continue;
            }
            let mut forward = vec![shown(&s)];
            while s.state().can_run() && forward.len() < 400 {
                assert!(s.step(), "{id}");
                forward.push(shown(&s));
            }
            for (index, expected) in forward.iter().enumerate().rev().skip(1) {
                assert!(s.step_back(), "{id} wave {wave}: back to view {index}");
                let now = shown(&s);
                assert_eq!(now.step, expected.step, "{id} wave {wave}: view {index}");
                assert_eq!(now.state, expected.state, "{id} wave {wave}: view {index}");
                assert_eq!(now.line, expected.line, "{id} wave {wave}: view {index}");
                assert_eq!(now.stack, expected.stack, "{id} wave {wave}: view {index}");
                assert_eq!(
                    now.events, expected.events,
                    "{id} wave {wave}: view {index}"
                );
                assert_eq!(now.lanes, expected.lanes, "{id} wave {wave}: view {index}");
                assert!(
                    now == *expected,
                    "{id} wave {wave}: view {index}\n got {now:#?}\nwant {expected:#?}"
                );
            }
            assert!(!s.step_back(), "{id}: nothing before the start");
        }
    }
}

#[test]
fn going_to_any_step_gives_the_machine_state_of_the_forward_run() {
    for id in lesson_ids() {
        let mut s = lesson(id);
        let mut states = vec![s.machine().expect("machine").checkpoint()];
        while s.state().can_run() {
            s.run_slice(1);
            states.push(s.machine().expect("machine").checkpoint());
        }
        let last = states.len() as u64 - 1;
        // A fixed shuffle: every step once, far jumps both ways.
        let mut order: Vec<u64> = (0..=last).collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for i in (1..order.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            order.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        for step in order {
            assert!(s.go_to_step(step));
            assert_eq!(s.step_count(), step, "{id}");
            assert!(
                s.machine().expect("machine").checkpoint() == states[step as usize],
                "{id}: the machine at step {step} differs from the forward run's"
            );
            assert_eq!(s.travel_note(), None);
        }
        s.go_to_step(last);
        assert_eq!(
            s.state(),
            &RunState::Finished,
            "{id}: the last step is the end"
        );
    }
}

#[test]
fn a_step_past_the_end_goes_to_the_end_and_says_so() {
    let mut s = lesson("if-else");
    s.run_all();
    let end = s.step_count();
    s.go_to_step(3);
    assert_eq!(
        s.state(),
        &RunState::Paused {
            at_breakpoint: false
        }
    );
    assert!(s.go_to_step(end + 1000));
    assert_eq!(s.step_count(), end);
    assert_eq!(s.state(), &RunState::Finished);
    let note = s.travel_note().expect("a note");
    assert!(note.contains(&format!("{}", end + 1000)) && note.contains(&end.to_string()));
}

#[test]
fn a_run_then_step_back_shows_the_run_s_view_again() {
    let mut s = lesson("loop-exit");
    let body = line(&s, "iadd    r1, r1, r2");
    s.toggle_breakpoint(body);
    assert!(matches!(s.run_all(), RunProgress::Paused { .. }));
    let first_hit = shown(&s);
    assert!(matches!(s.run_all(), RunProgress::Paused { .. }));
    assert!(s.reverse_continue());
    assert_eq!(shown(&s), first_hit, "back at the first breakpoint hit");
    assert_eq!(
        s.state(),
        &RunState::Paused {
            at_breakpoint: true
        }
    );
    assert!(!s.reverse_continue(), "no hit before the first");
    assert!(s.travel_note().is_some());
}

/// Runs a move to its end as the page does.
fn finish_move(s: &mut Session) {
    for _ in 0..10_000 {
        if s.run_slice(64) != RunProgress::Running {
            return;
        }
    }
    panic!("the move never ended");
}

const NESTED: &str = "\
.kernel nested
    mov_sr r0, sr_lane_id
    mov_imm r1, 0
    mov_imm r2, 1
    mov_imm r3, 4
    mov_imm r9, 2
    icmp_lt p0, r0, r3
    if p0
        loop
            iadd r1, r1, r2
            icmp_gt p1, r1, r0
            break p1
            icmp_eq p2, r1, r9
            continue p2
            iadd r4, r4, r2
        endloop
    else
        iadd r5, r5, r2
    endif
    iadd r6, r6, r2
    halt
.end
";

#[test]
fn step_over_an_if_lands_after_its_endif_and_over_a_loop_after_its_endloop() {
    let mut s = session(NESTED, 8, 8);
    let if_line = line(&s, "if p0");
    let loop_line = line(&s, "loop");
    let after_endif = line(&s, "iadd r6, r6, r2");
    while s.current_line() != Some(if_line) {
        s.step();
    }
    assert!(s.step_over());
    finish_move(&mut s);
    assert_eq!(s.current_line(), Some(after_endif));
    assert!(s.stack().is_empty(), "reconverged");
    assert_eq!(s.lanes().iter().filter(|l| l.active).count(), 8);
    // Back to the `if`, into it, and over the loop with its partial breaks and continues.
    assert!(s.step_back());
    s.go_to_step(0);
    while s.current_line() != Some(loop_line) {
        s.step();
    }
    let depth = s.stack().len();
    assert!(s.step_over());
    finish_move(&mut s);
    assert_eq!(s.current_line(), Some(line(&s, "else")), "the loop is done");
    assert_eq!(s.stack().len(), depth);
    assert!(
        s.last_events().iter().any(|e| e.kind == "break"),
        "the move's events stay on show"
    );
}

#[test]
fn step_out_of_a_loop_body_lands_where_the_loop_reconverged() {
    let mut s = session(NESTED, 8, 8);
    let body = line(&s, "icmp_gt p1, r1, r0");
    while s.current_line() != Some(body) {
        s.step();
    }
    assert_eq!(s.stack().len(), 2, "in the loop inside the if");
    assert!(s.step_out());
    finish_move(&mut s);
    assert_eq!(s.stack().len(), 1, "the loop's frame popped");
    assert!(s.step_out());
    finish_move(&mut s);
    assert!(s.stack().is_empty(), "the if's frame popped");
    assert_eq!(s.current_line(), Some(line(&s, "iadd r6, r6, r2")));
}

#[test]
fn next_and_previous_event_walk_the_selected_wave_s_events() {
    let mut s = session(NESTED, 8, 8);
    let mut stops = Vec::new();
    while s.state().can_run() {
        assert!(s.next_event());
        finish_move(&mut s);
        stops.push((s.step_count(), s.last_events()));
        assert!(stops.len() < 100);
    }
    assert!(
        stops.len() >= 6,
        "push, diverge, iterations, breaks, pops: {stops:?}"
    );
    let last = stops.pop().expect("stops");
    assert!(s.step_count() >= last.0);
    for (step, events) in stops.iter().rev() {
        assert!(s.previous_event(), "back to step {step}");
        assert_eq!(s.step_count(), *step);
        assert_eq!(&s.last_events(), events, "the events shown at step {step}");
    }
}

#[test]
fn step_over_and_out_cross_barriers_with_several_waves() {
    let source = "\
.kernel barriers
    mov_sr r0, sr_lane_id
    mov_imm r1, 0
    mov_imm r2, 1
    mov_imm r3, 3
    loop
        iadd r1, r1, r2
        barrier
        icmp_ge p1, r1, r3
        break p1
    endloop
    halt
.end
";
    let mut s = session(source, 16, 4);
    assert_eq!(s.wave_count(), 4);
    s.select_wave(2);
    let loop_line = line(&s, "loop");
    while s.current_line() != Some(loop_line) {
        s.step();
    }
    assert!(s.step_over());
    finish_move(&mut s);
    assert_eq!(s.current_line(), Some(line(&s, "halt")));
    assert!(s.stack().is_empty());
    // Every wave went through the same barriers.
    assert!(s.machine().expect("machine").stats().barriers >= 2);
    let here = shown(&s);
    s.step_back();
    s.step();
    assert_eq!(shown(&s).step, here.step);
}

#[test]
fn a_link_to_a_late_step_opens_at_that_step() {
    let mut s = lesson("break-continue");
    s.run_all();
    let end = s.step_count();
    s.go_to_step(end / 2);
    let link = s.share_state();
    let opened = Session::restore(&link).expect("opens");
    assert_eq!(opened.step_count(), end / 2);
    assert!(opened.machine().expect("m").checkpoint() == s.machine().expect("m").checkpoint());
}

#[test]
fn the_timeline_has_a_column_per_instruction_with_each_lane_as_it_was() {
    use crate::LaneCell;
    let mut s = lesson("if-else");
    let mut before_each = Vec::new();
    while s.state().can_run() {
        before_each.push((
            s.current_line().unwrap_or(0),
            s.lanes().iter().map(|l| l.active).collect::<Vec<_>>(),
        ));
        s.step();
    }
    let view = s.timeline().expect("a timeline");
    assert!(view.fine && view.finished);
    assert_eq!(view.columns.len(), before_each.len());
    for (column, (line, active)) in view.columns.iter().zip(&before_each) {
        assert_eq!(column.line, *line);
        let shown: Vec<bool> = column
            .lanes
            .iter()
            .map(|c| *c == LaneCell::Active)
            .collect();
        assert_eq!(&shown, active, "line {line}");
    }
    let marks: Vec<_> = view.columns.iter().filter_map(|c| c.mark).collect();
    assert!(
        marks.contains(&"diverge") && marks.contains(&"reconverge"),
        "{marks:?}"
    );
    assert_eq!(view.current, Some(view.columns.len() - 1));
    // Back in time: the same columns, the current one moves.
    let at_if = view
        .columns
        .iter()
        .position(|c| c.mark == Some("diverge"))
        .unwrap();
    s.go_to_step(view.columns[at_if].step);
    let back = s.timeline().expect("a timeline");
    assert_eq!(back.columns, view.columns);
    assert_eq!(back.current, Some(at_if));
    assert!(
        back.value_text().contains("line 8"),
        "{}",
        back.value_text()
    );
    assert!(
        back.value_text().contains("8 of 8 lanes active"),
        "{}",
        back.value_text()
    );
    // The then side, one instruction later.
    s.go_to_step(view.columns[at_if + 1].step);
    let then_side = s.timeline().expect("a timeline").description();
    assert!(then_side.contains("lanes 0-2 active"), "{then_side}");
    assert!(then_side.contains("lanes 3-7 waiting"), "{then_side}");
    // A fresh session that only went that far builds the same columns up to there.
    let mut fresh = lesson("if-else");
    fresh.go_to_step(view.columns[at_if].step);
    let partial = fresh.timeline().expect("a timeline");
    assert_eq!(partial.columns[..], view.columns[..=at_if]);
}

#[test]
fn a_long_run_zoomed_out_shows_stretches_and_zooms_in_to_instructions() {
    let source = "\
.kernel long
    mov_imm r1, 0
    mov_imm r2, 1
    mov_imm r3, 20000
    loop
        iadd r1, r1, r2
        icmp_ge p1, r1, r3
        break p1
    endloop
    halt
.end
";
    let mut s = session(source, 32, 32);
    s.run_all();
    let end = s.step_count();
    assert!(end > 4 * crate::FINE_STEPS);
    let whole = s.timeline().expect("a timeline");
    assert!(!whole.fine);
    assert!(whole.columns.len() > 4, "{} stretches", whole.columns.len());
    // Every lane runs every iteration; only the stretch with the loop's exit has idle lanes.
    let (exit, looping) = whole.columns.split_last().expect("columns");
    assert!(looping.iter().all(|c| c.efficiency == 1.0));
    assert!(exit.efficiency < 1.0);
    s.go_to_step(end / 2);
    // Half the run: narrow enough to be replayed into equal stretches.
    s.zoom_timeline(2.0);
    assert!(s.timeline_window() <= crate::REPLAYED_STEPS);
    let half = s.timeline().expect("a timeline");
    assert!(!half.fine);
    assert!(half.columns.len() > 200, "{} stretches", half.columns.len());
    assert!(half.columns.iter().all(|c| c.efficiency == 1.0));
    assert!(half.columns.windows(2).all(|p| p[0].step == p[1].first));
    assert_eq!(
        s.step_count(),
        end / 2,
        "the replay leaves the machine where it was"
    );
    while s.timeline_window() > crate::FINE_STEPS {
        s.zoom_timeline(2.0);
    }
    let near = s.timeline().expect("a timeline");
    assert!(near.fine);
    assert!(near.first <= end / 2 && end / 2 <= near.last);
    assert_eq!(
        near.columns.len() as u64,
        near.last - near.first,
        "one wave: every step"
    );
    s.zoom_timeline(0.0);
    assert_eq!(s.timeline_window(), end);
}

#[test]
fn step_over_uniform_ifs_and_a_call_lands_after_them() {
    let source = "\
.kernel uniform
    mov_sr r0, sr_lane_id
    mov_imm r1, 100
    mov_imm r2, 1
    icmp_lt p0, r0, r1
    if p0
        iadd r3, r3, r2
    endif
    icmp_gt p1, r0, r1
    if p1
        iadd r4, r4, r2
    else
        iadd r5, r5, r2
    endif
    call twice
    iadd r6, r6, r2
    halt
twice:
    iadd r7, r7, r2
    iadd r7, r7, r2
    return
.end
";
    let mut s = session(source, 8, 8);
    for (at, after) in [
        ("if p0", "icmp_gt p1, r0, r1"),
        ("if p1", "call twice"),
        ("call twice", "iadd r6, r6, r2"),
    ] {
        while s.current_line() != Some(line(&s, at)) {
            assert!(s.step(), "to {at}");
        }
        assert!(s.step_over());
        finish_move(&mut s);
        assert_eq!(s.current_line(), Some(line(&s, after)), "over {at}");
        assert!(s.stack().is_empty());
        assert_eq!(s.lanes().iter().filter(|l| l.active).count(), 8);
    }
    assert_eq!(
        s.selected_wave().expect("wave").row(7)[..8],
        [2; 8],
        "the call ran whole"
    );
}

#[test]
fn a_link_opens_in_slices_like_a_run_and_pause_stops_it_where_it_is() {
    let mut s = lesson("break-continue");
    s.run_all();
    let end = s.step_count();
    s.go_to_step(end - 3);
    s.select_lane(2);
    let link = s.share_state();

    let mut opening = Session::restore_opening(&link).expect("opens");
    assert_eq!(opening.step_count(), 0);
    assert_eq!(opening.opening(), Some(end - 3));
    assert_eq!(opening.run_slice(4), RunProgress::Running);
    assert_eq!(opening.step_count(), 4);
    assert_eq!(opening.status_text(), format!("going to step {}…", end - 3));
    // What an autosave written now keeps is where it is going, not where it stands.
    let saved = Session::restore_autosave(&opening.autosave()).expect("opens");
    assert_eq!(saved.step_count(), end - 3);
    let mut slices = 1;
    while opening.run_slice(4) == RunProgress::Running {
        slices += 1;
    }
    assert!(slices > 1);
    assert_eq!(opening.opening(), None);
    assert_eq!(
        shown(&opening),
        shown(&Session::restore(&link).expect("opens"))
    );
    assert_eq!(opening.selection().lane, 2);

    let mut paused = Session::restore_opening(&link).expect("opens");
    paused.run_slice(5);
    paused.pause();
    assert_eq!(paused.opening(), None);
    assert_eq!(paused.step_count(), 5);
    assert_eq!(
        paused.state(),
        &RunState::Paused {
            at_breakpoint: false
        }
    );
}

#[test]
fn back_to_cursor_goes_to_each_earlier_visit_of_the_line() {
    let mut s = lesson("loop-exit");
    let body = line(&s, "iadd    r1, r1, r2");
    s.run_all();
    let mut visits = Vec::new();
    while s.reverse_to_line(body) {
        assert_eq!(s.current_line(), Some(body));
        assert_eq!(
            s.state(),
            &RunState::Paused {
                at_breakpoint: false
            }
        );
        visits.push(s.step_count());
        assert!(visits.len() < 100);
    }
    assert!(visits.len() >= 2, "one visit per iteration: {visits:?}");
    assert!(
        visits.windows(2).all(|v| v[0] > v[1]),
        "each one earlier: {visits:?}"
    );
    let note = s.travel_note().expect("says why it stopped");
    assert!(note.contains(&body.to_string()), "{note}");
    // Forward again: Run to cursor from the earliest visit stops at the next one.
    s.run_to_line(body);
    assert!(matches!(s.run_all(), RunProgress::Paused { .. }));
    assert_eq!(s.step_count(), visits[visits.len() - 2]);
}
