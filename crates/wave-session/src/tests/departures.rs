//! With the reference emulator's behaviour on, the events, the status and the caption say where
//! a step departs from the spec, and time travel shows the same again; with it off, nothing
//! changes.

use super::{lesson, session, step_to_line_starting};
use crate::{EventView, MoveSource, Session, DEPARTS_NOTE, DEPARTURE_LABEL};

/// The "break-in-if" lesson, one wave of 8 lanes, with the reference behaviour `on` or not.
fn break_in_if(on: bool) -> Session {
    let mut s = lesson("break-in-if");
    let mut form = s.form().clone();
    form.workgroup = "8,1,1".to_string();
    form.wave_width = "8".to_string();
    form.reference_behaviour = on;
    s.set_form(form);
    s
}

/// What the page shows after a step: the events, the status and the caption.
fn shown(s: &Session) -> (Vec<EventView>, String, String) {
    (s.last_events(), s.status_text(), s.caption().text())
}

const REVIVED: &str = "wave-emu brings lanes that broke out of the loop back at this point; \
                       the spec keeps them waiting until the loop ends";

#[test]
fn a_break_revived_at_endif_shows_in_the_events_status_and_caption() {
    let mut s = break_in_if(true);
    step_to_line_starting(&mut s, "endif");
    let endif = s.current_line().expect("a line");
    assert!(!s.departed(), "the steps before endif depart from nothing");
    assert!(s.step());
    let at_endif = s.step_count();

    let events = s.last_events();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        ["pop-if", "departure"],
        "the departure comes after the pop that revived the lane"
    );
    let departure = &events[1];
    assert_eq!(departure.departure, Some("break-revived"));
    assert_eq!(departure.lanes, vec![0]);
    assert_eq!(departure.line, endif);
    assert_eq!(
        departure.text,
        format!("at line {endif}, lane 0: {REVIVED}")
    );
    assert_eq!(DEPARTURE_LABEL, "differs from spec");

    assert!(s.departed());
    assert_eq!(
        s.status_text(),
        format!("paused at line {}{DEPARTS_NOTE}", endif + 1)
    );
    assert!(s
        .status_text()
        .ends_with(" · departs from the spec (wave-emu behaviour)"));
    assert_eq!(
        s.caption().text(),
        format!(
            "`endif` at line {endif}: lanes 0-7 reconverge and go on together; stack depth 1; \
             this departs from the spec for lane 0: {REVIVED}"
        )
    );
    let first = shown(&s);

    // The next step does what the spec does: no note.
    assert!(s.step());
    assert!(!s.departed());
    assert!(!s.status_text().contains("departs"), "{}", s.status_text());
    assert!(!s.caption().text().contains("departs"));

    // Back to the step, and forward onto it again: the same words.
    assert!(s.step_back());
    assert_eq!(s.step_count(), at_endif);
    assert_eq!(shown(&s), first, "after Step back");
    assert!(s.step_back());
    assert!(!s.departed(), "at the break, nothing departs");
    assert!(s.step());
    assert_eq!(s.step_count(), at_endif);
    assert_eq!(shown(&s), first, "stepping forward again");

    // A link made here opens on the same words, the switch on.
    let link = Session::restore(&format!("#{}", s.share_state())).expect("the link opens");
    assert!(link.form().reference_behaviour);
    assert_eq!(shown(&link), first, "a link opened at the step");

    // Going to the step from elsewhere rebuilds it the same way.
    for _ in 0..5 {
        assert!(s.step());
    }
    assert!(s.go_to_step(at_endif));
    assert_eq!(shown(&s), first, "after Go to step from later");
    assert!(s.go_to_step(0));
    assert!(s.go_to_step(at_endif));
    assert_eq!(shown(&s), first, "after Go to step from the start");
}

#[test]
fn a_departure_survives_runs_and_shows_after_step_over_and_next_event() {
    // Step over the `if`: the move runs through the endif, whose departure it shows.
    let mut s = break_in_if(true);
    step_to_line_starting(&mut s, "if p1");
    let after_endif = super::line(&s, "iadd    r3");
    assert!(s.step_over());
    assert_eq!(
        s.run_all(),
        crate::RunProgress::Paused { line: after_endif }
    );
    let kinds: Vec<Option<&str>> = s.last_events().iter().map(|e| e.departure).collect();
    assert!(kinds.contains(&Some("break-revived")), "{kinds:?}");
    assert!(
        s.status_text().ends_with(DEPARTS_NOTE),
        "{}",
        s.status_text()
    );
    assert!(
        s.caption().text().contains("departure from the spec below"),
        "{}",
        s.caption().text()
    );
    let over = (s.step_count(), shown(&s));
    // A run shows no events, so no departure; coming back to the step over's end shows it again.
    s.run_all();
    assert!(!s.departed());
    assert!(!s.status_text().contains("departs"), "{}", s.status_text());
    assert!(s.go_to_step(over.0));
    assert_eq!(shown(&s), over.1, "back at the end of the step over");

    // Next event from the break stops at the endif (its pop), departure included.
    let mut s = break_in_if(true);
    step_to_line_starting(&mut s, "break p1");
    assert!(s.step());
    assert!(s.next_event());
    s.run_all();
    let views = s.last_events();
    assert!(
        views
            .iter()
            .any(|e| e.kind == "departure" && e.departure == Some("break-revived")),
        "{views:?}"
    );
    assert!(s.status_text().ends_with(DEPARTS_NOTE));
}

#[test]
fn with_the_switch_off_no_step_departs() {
    let mut on = break_in_if(true);
    let mut off = break_in_if(false);
    let mut departed_on = 0;
    while off.step() {
        assert!(!off.departed(), "step {}", off.step_count());
        assert!(off.last_events().iter().all(|e| e.kind != "departure"));
        assert!(!off.status_text().contains("departs"));
        assert!(!off.caption().text().contains("departs"));
    }
    while on.step() {
        departed_on += usize::from(on.departed());
    }
    assert!(
        departed_on > 0,
        "the same kernel departs with the switch on"
    );
    // The spec run's events at the endif are exactly the spec's.
    let mut off = break_in_if(false);
    step_to_line_starting(&mut off, "endif");
    off.step();
    let kinds: Vec<&str> = off.last_events().iter().map(|e| e.kind).collect();
    assert!(!kinds.contains(&"departure"), "{kinds:?}");
}

/// `@p0` guards a reduction: the reference reads it as no guard.
const P0_REDUCE: &str = "\
.kernel guarded_reduce
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 4
    icmp_lt  p0, r0, r1
    @p0 wave_reduce_add r2, r0
    halt
.end
";

#[test]
fn p0_is_no_guard_in_the_data_flow_with_the_reference_behaviour() {
    for on in [false, true] {
        let mut s = session(P0_REDUCE, 8, 8);
        let mut form = s.form().clone();
        form.reference_behaviour = on;
        s.set_form(form);
        step_to_line_starting(&mut s, "@p0");
        assert!(s.step());
        let moved = s.data_movement().expect("a cross-lane step");
        let active: Vec<bool> = moved.lanes.iter().map(|m| m.active).collect();
        let every = MoveSource::Lanes((0..8).collect());
        let first_four = MoveSource::Lanes((0..4).collect());
        if on {
            assert_eq!(active, [true; 8], "every active lane runs it");
            assert_eq!(moved.lanes[6].source, every);
            assert_eq!(moved.lanes[6].result, Some(28));
            // The machine computed exactly what the picture says.
            let wave = s.selected_wave().expect("a wave");
            assert_eq!(wave.row(2), [28; 8]);
            let kinds: Vec<Option<&str>> = s.last_events().iter().map(|e| e.departure).collect();
            assert_eq!(kinds, [Some("p0-unconditional")]);
            assert_eq!(s.last_events()[0].lanes, vec![4, 5, 6, 7]);
            assert!(s.status_text().ends_with(DEPARTS_NOTE));
            assert!(
                s.caption().text().contains(
                    "this departs from the spec for lanes 4-7: wave-emu reads @p0 as no guard"
                ),
                "{}",
                s.caption().text()
            );
        } else {
            assert_eq!(active, [true, true, true, true, false, false, false, false]);
            assert_eq!(moved.lanes[0].source, first_four);
            assert_eq!(moved.lanes[0].result, Some(6));
            assert_eq!(moved.lanes[6].source, MoveSource::Idle);
            assert!(!s.departed());
        }
    }
}

#[test]
fn p0_is_no_guard_in_the_short_caption_either() {
    let source = "\
.kernel guarded_add
.registers 8
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 4
    icmp_lt  p0, r0, r1
    @p0 iadd r2, r0, r1
    halt
.end
";
    let mut s = session(source, 8, 8);
    let mut form = s.form().clone();
    form.reference_behaviour = true;
    s.set_form(form);
    step_to_line_starting(&mut s, "@p0");
    assert!(s.step());
    let caption = s.caption().text();
    assert!(
        caption.starts_with("`@p0 iadd r2, r0, r1` at line 6: ran on lanes 0-7; r2 changed"),
        "{caption}"
    );
    assert!(!caption.contains("do nothing"), "{caption}");
}

#[test]
fn keeping_the_latest_events_keeps_the_departures_among_them_in_place() {
    use crate::events::StepEvents;
    use wave_engine::machine::{Departure, DepartureEvent, Event, EventKind, EventSink};
    let event = |pc| Event {
        wave: 0,
        pc,
        mask: 1,
        kind: EventKind::Break,
    };
    let departure = |pc| DepartureEvent {
        wave: 0,
        pc,
        mask: 1,
        departure: Departure::BreakRevived,
    };
    let mut sink = StepEvents::default();
    sink.depart(departure(0));
    for pc in 1..=4 {
        sink.emit(event(pc));
        sink.depart(departure(pc));
    }
    sink.keep_latest(2);
    let events: Vec<u32> = sink.events.iter().map(|e| e.pc).collect();
    assert_eq!(events, [3, 4]);
    let places: Vec<(usize, u32)> = sink.departures.iter().map(|(at, d)| (*at, d.pc)).collect();
    assert_eq!(
        places,
        [(1, 3), (2, 4)],
        "at most 2, each after the same event"
    );
    // Departures with no event after them are kept to the same number.
    for pc in 5..10 {
        sink.depart(departure(pc));
    }
    sink.keep_latest(2);
    let places: Vec<(usize, u32)> = sink.departures.iter().map(|(at, d)| (*at, d.pc)).collect();
    assert_eq!(places, [(2, 8), (2, 9)]);
}
