//! "Download trace": the JSON says what stepping showed, ends as the run stands, stays small
//! for a 64-lane lesson and keeps the last steps of a long run.

use wave_trace::{Trace, TraceEnd};

use super::{lesson, session, step_to_line_starting};
use crate::MAX_TRACE_STEPS;

fn bits(lanes: &[u32]) -> u64 {
    lanes.iter().fold(0, |mask, lane| mask | 1 << lane)
}

fn parse_mask(text: &str) -> u64 {
    u64::from_str_radix(text.trim_start_matches("0x"), 16).expect("a hex mask")
}

#[test]
fn the_trace_holds_the_events_each_step_showed() {
    let mut s = lesson("break-in-if");
    let mut form = s.form().clone();
    form.workgroup = "8,1,1".to_string();
    form.wave_width = "8".to_string();
    s.set_form(form);
    let mut shown = Vec::new();
    while s.step() {
        for event in s.last_events() {
            shown.push((
                s.step_count(),
                event.wave,
                event.kind.to_string(),
                bits(&event.lanes),
            ));
        }
    }
    assert!(s.machine().expect("machine").is_finished());
    assert!(shown.iter().any(|e| e.2 == "break"), "{shown:?}");

    let export = s.trace_json().expect("a trace");
    let trace = Trace::parse(&export.json).expect("it parses");
    let traced: Vec<_> = trace
        .events
        .iter()
        .map(|e| (e.step, e.wave, e.kind.clone(), parse_mask(&e.lanes)))
        .collect();
    assert_eq!(traced, shown);
    assert_eq!(trace.end, TraceEnd::Finished);
    assert_eq!((trace.first_step, trace.last_step), (0, s.step_count()));
    assert_eq!(export.events, shown.len() as u64);
    let source_lines: Vec<&str> = s.source().lines().collect();
    for event in &trace.events {
        let line = source_lines[event.line as usize - 1];
        assert!(line.contains(&event.instruction), "{line} vs {event:?}");
    }
}

#[test]
fn a_trace_in_the_middle_ends_paused_and_leaves_the_machine_where_it_stands() {
    let mut s = lesson("break-in-if");
    step_to_line_starting(&mut s, "break p1");
    let (step, picture) = (s.step_count(), s.moment_svg(false));
    let trace = Trace::parse(&s.trace_json().expect("a trace").json).expect("it parses");
    assert_eq!(trace.end, TraceEnd::Paused);
    assert_eq!(trace.last_step, step);
    assert!(trace.events.iter().all(|e| e.step <= step));
    assert_eq!(s.step_count(), step);
    assert_eq!(
        s.moment_svg(false),
        picture,
        "the machine is where it stood"
    );
    assert!(s.step(), "and goes on from there");
}

#[test]
fn a_trap_ends_the_trace_where_it_happened() {
    let source = ".kernel oob\n    mov_sr r0, sr_lane_id\n    mov_imm r1, 0x7ffffff0\n    \
                  device_store_u32 r1, r0\n    halt\n.end\n";
    let mut s = session(source, 4, 4);
    s.run_all();
    let trace = Trace::parse(&s.trace_json().expect("a trace").json).expect("it parses");
    match trace.end {
        TraceEnd::Trapped { line, wave, .. } => assert_eq!((line, wave), (4, 0)),
        other => panic!("expected a trap, got {other:?}"),
    }
}

#[test]
fn a_64_lane_lesson_traces_in_a_small_file() {
    let mut s = lesson("break-in-if");
    let mut form = s.form().clone();
    form.workgroup = "64,1,1".to_string();
    form.wave_width = "64".to_string();
    s.set_form(form);
    s.run_all();
    let export = s.trace_json().expect("a trace");
    assert!(export.json.len() < 200_000, "{} bytes", export.json.len());
    let trace = Trace::parse(&export.json).expect("it parses");
    assert_eq!(trace.launch.wave_width, 64);
    let diverge = trace
        .events
        .iter()
        .find(|e| e.kind == "diverge")
        .expect("the if diverges");
    assert_eq!(diverge.lanes.len(), 2 + 16, "a 64-lane mask in full");
}

#[test]
fn a_long_run_keeps_its_last_steps() {
    // 3 instructions an iteration, 100 000 iterations: over 300 000 steps.
    let source = ".kernel long\n    mov_imm r0, 0\n    mov_imm r1, 100000\n    mov_imm r2, 1\n    \
                  loop\n        iadd r0, r0, r2\n        icmp_ge p1, r0, r1\n        break p1\n    \
                  endloop\n    halt\n.end\n";
    let mut s = session(source, 1, 1);
    s.run_all();
    let now = s.step_count();
    assert!(now > MAX_TRACE_STEPS, "{now}");
    let export = s.trace_json().expect("a trace");
    assert_eq!(export.first_step, now - MAX_TRACE_STEPS);
    let trace = Trace::parse(&export.json).expect("it parses");
    assert_eq!(trace.first_step, now - MAX_TRACE_STEPS);
    assert!(trace.events.iter().all(|e| e.step > trace.first_step));
    assert_eq!(
        trace.events.last().map(|e| e.kind.as_str()),
        Some("wave-done")
    );
    assert_eq!(trace.end, TraceEnd::Finished);
}
