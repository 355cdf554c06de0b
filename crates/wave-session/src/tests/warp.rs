//! Be the warp: the learner performs each control-flow instruction, graded against the wave
//! the engine leaves.

use super::session;
use crate::{RunProgress, Session, StackChange, WarpAnswer};

/// Every control-flow kind, guarded forms among them. `K` lanes (from lane 0) take the `if` and
/// break in the first iteration; the others continue once and break in the second.
fn kinds(k: u32) -> Session {
    let source = format!(
        "\
.kernel kinds
.registers 8
    mov_sr  r0, sr_lane_id
    mov_imm r1, {k}
    mov_imm r4, 1
    mov_imm r5, 2
    mov_imm r3, 0
    icmp_lt p1, r0, r1
    icmp_ge p3, r0, r1
    if p1
        mov_imm r2, 1
    else
        mov_imm r2, 2
    endif
    loop
        iadd    r3, r3, r4
        icmp_lt p2, r3, r5
        icmp_ge p0, r3, r5
        @p2 continue p3
        break p1
        break p0
    endloop
    call sub
    if p1
        call sub
        @p1 halt
    endif
    halt
sub:
    iadd r7, r7, r4
    return
.end
"
    );
    let mut s = session(&source, 8, 8);
    s.set_warp_on(true);
    s
}

const ALL: u64 = 0xff;
const LOW: u64 = 0b111;
const HIGH: u64 = ALL & !LOW;

/// Steps until Be the warp asks (or nothing runs any more); returns the question's code.
fn next_question(s: &mut Session) -> Option<String> {
    for _ in 0..200 {
        if let Some(q) = s.warp_question() {
            return Some(q.code.clone());
        }
        if !s.step() {
            return None;
        }
    }
    None
}

fn other(stack: StackChange) -> StackChange {
    match stack {
        StackChange::Nothing => StackChange::ChangeTop,
        _ => StackChange::Nothing,
    }
}

/// Performs the open instruction, expected to be `code` leaving `lanes` active with `stack`
/// (saving `saved` for a push): first wrongly (lanes, then stack, then saved lanes), each taken
/// back, then right.
fn perform(s: &mut Session, code: &str, lanes: u64, stack: StackChange, saved: u64) {
    assert_eq!(next_question(s).as_deref(), Some(code));
    let step = s.step_count();
    let right = WarpAnswer {
        lanes,
        stack,
        saved,
    };
    let mut wrongs = vec![
        WarpAnswer {
            lanes: lanes ^ 1,
            ..right
        },
        WarpAnswer {
            stack: other(stack),
            ..right
        },
    ];
    if stack == StackChange::Push {
        wrongs.push(WarpAnswer {
            saved: saved ^ 0b10,
            ..right
        });
    }
    for (tries, wrong) in wrongs.iter().enumerate() {
        let verdict = s.check_warp(wrong).expect("a verdict");
        assert_eq!(verdict.correct, Some(false), "{code}: {wrong:?}");
        assert!(verdict.text.starts_with("Not quite: "), "{}", verdict.text);
        assert_eq!(s.step_count(), step, "{code}: a wrong answer is taken back");
        let again = s.warp_question().expect("asked again");
        assert_eq!(again.code, code);
        assert_eq!(again.tries as usize, tries + 1);
    }
    let verdict = s.check_warp(&right).expect("a verdict");
    assert_eq!(verdict.correct, Some(true), "{code}: {}", verdict.text);
    assert!(verdict.text.starts_with("Right: "), "{}", verdict.text);
    assert!(s.step_count() > step, "{code}: a right answer runs it");
    assert!(s.warp_question().is_none());
}

#[test]
fn every_control_flow_kind_is_graded_under_a_divergent_mask() {
    use StackChange::*;
    let mut s = kinds(3);
    perform(&mut s, "if p1", LOW, Push, ALL);
    perform(&mut s, "else", HIGH, ChangeTop, 0);
    perform(&mut s, "endif", ALL, Pop, 0);
    perform(&mut s, "loop", ALL, Push, ALL);
    perform(&mut s, "@p2 continue p3", LOW, ChangeTop, 0);
    // The last lanes break: none is left, so the wave goes to the endloop.
    perform(&mut s, "break p1", 0, ChangeTop, 0);
    perform(&mut s, "endloop", HIGH, ChangeTop, 0);
    perform(&mut s, "@p2 continue p3", HIGH, Nothing, 0);
    perform(&mut s, "break p1", HIGH, Nothing, 0);
    perform(&mut s, "break p0", 0, ChangeTop, 0);
    perform(&mut s, "endloop", ALL, Pop, 0);
    perform(&mut s, "call sub", ALL, Nothing, 0);
    perform(&mut s, "return", ALL, Nothing, 0);
    perform(&mut s, "if p1", LOW, Push, ALL);
    perform(&mut s, "call sub", LOW, Nothing, 0);
    perform(&mut s, "return", LOW, Nothing, 0);
    perform(&mut s, "@p1 halt", 0, ChangeTop, 0);
    perform(&mut s, "endif", HIGH, Pop, 0);
    perform(&mut s, "halt", 0, Nothing, 0);
    assert_eq!(next_question(&mut s), None);
    assert_eq!(s.warp_score().text(), "19 of 19 right, 0 shown");
}

#[test]
fn every_control_flow_kind_is_graded_under_a_uniform_mask() {
    use StackChange::*;
    let mut s = kinds(8);
    perform(&mut s, "if p1", ALL, Push, ALL);
    perform(&mut s, "else", 0, ChangeTop, 0);
    perform(&mut s, "endif", ALL, Pop, 0);
    perform(&mut s, "loop", ALL, Push, ALL);
    perform(&mut s, "@p2 continue p3", ALL, Nothing, 0);
    perform(&mut s, "break p1", 0, ChangeTop, 0);
    perform(&mut s, "endloop", ALL, Pop, 0);
    perform(&mut s, "call sub", ALL, Nothing, 0);
    perform(&mut s, "return", ALL, Nothing, 0);
    perform(&mut s, "if p1", ALL, Push, ALL);
    perform(&mut s, "call sub", ALL, Nothing, 0);
    perform(&mut s, "return", ALL, Nothing, 0);
    perform(&mut s, "@p1 halt", 0, ChangeTop, 0);
    // Every lane halted: the endif pops a frame no lane is left in, and the wave is over.
    perform(&mut s, "endif", 0, Pop, 0);
    assert_eq!(next_question(&mut s), None);
    assert!(s.machine().is_some_and(|m| m.is_finished()));
    assert_eq!(s.warp_score().text(), "14 of 14 right, 0 shown");
}

#[test]
fn verdicts_give_the_reason_in_the_captions_words() {
    let mut s = kinds(3);
    next_question(&mut s);
    let wrong = s
        .check_warp(&WarpAnswer {
            lanes: ALL,
            stack: StackChange::Nothing,
            saved: 0,
        })
        .expect("a verdict");
    assert_eq!(
        wrong.text,
        "Not quite: look again at the active lanes and the stack. Think of the rule: the lanes \
         whose predicate holds take the if side; the others wait at else. Try again, or press \
         Show me."
    );
    assert_eq!(
        s.warp_verdict().map(|v| v.text.as_str()),
        Some(wrong.text.as_str())
    );
    assert_eq!(
        s.warp_question().and_then(|q| q.last_try.clone()),
        Some(wrong.text)
    );
    let right = s
        .check_warp(&WarpAnswer {
            lanes: LOW,
            stack: StackChange::Push,
            saved: ALL,
        })
        .expect("a verdict");
    assert!(
        right.text.starts_with(
            "Right: lanes 0-2 are active; the stack pushes a frame that saves lanes 0-7. Why: \
             lanes 0-2 take the if side; lanes 3-7 wait at else"
        ),
        "{}",
        right.text
    );
    assert_eq!(
        s.caption().sentence,
        right.text
            ["Right: lanes 0-2 are active; the stack pushes a frame that saves lanes 0-7. Why: "
                .len()..right.text.len() - 1]
    );
}

#[test]
fn show_me_runs_the_instruction_and_counts_it_shown() {
    let mut s = kinds(3);
    next_question(&mut s);
    let step = s.step_count();
    let shown = s.show_warp().expect("a verdict");
    assert_eq!(shown.correct, None);
    assert!(
        shown
            .text
            .starts_with("Shown: lanes 0-2 are active; the stack pushes a frame that saves lanes 0-7. Why: lanes 0-2 take the if side"),
        "{}",
        shown.text
    );
    assert!(s.step_count() > step);
    assert_eq!(s.warp_score().text(), "0 of 1 right, 1 shown");
    // The verdict stays on show until the next command; the next control-flow instruction asks.
    assert!(s.warp_verdict().is_some());
    assert_eq!(next_question(&mut s).as_deref(), Some("else"));
    assert!(s.warp_verdict().is_none());
}

#[test]
fn ordinary_instructions_run_without_asking_and_nothing_runs_while_asked() {
    let mut s = kinds(3);
    // Seven ordinary instructions run before the `if`: the step running the last one asks.
    for _ in 0..6 {
        assert!(s.step());
        assert!(s.warp_question().is_none());
    }
    assert!(s.step(), "the step that reaches the if asks");
    assert_eq!(s.warp_question().map(|q| q.code.as_str()), Some("if p1"));
    assert_eq!(s.status_text(), "paused at line 10 for a question");
    let step = s.step_count();
    assert!(!s.step());
    assert_eq!(s.run_slice(1000), RunProgress::Idle);
    assert!(!s.step_over());
    assert_eq!(s.step_count(), step);
}

#[test]
fn run_stops_at_the_next_question_and_turning_it_off_lets_it_run() {
    let mut s = kinds(3);
    assert!(matches!(s.run_all(), RunProgress::Paused { line: 10 }));
    assert_eq!(s.warp_question().map(|q| q.code.as_str()), Some("if p1"));
    s.show_warp();
    assert!(matches!(s.run_all(), RunProgress::Paused { line: 12 }));
    assert_eq!(s.warp_question().map(|q| q.code.as_str()), Some("else"));
    s.set_warp_on(false);
    assert!(s.warp_question().is_none());
    assert_eq!(s.run_all(), RunProgress::Finished);
}

#[test]
fn turning_it_on_asks_at_once_where_the_wave_stands() {
    let mut s = kinds(3);
    s.set_warp_on(false);
    for _ in 0..7 {
        s.step();
    }
    assert!(s.warp_question().is_none());
    s.set_warp_on(true);
    assert_eq!(s.warp_question().map(|q| q.code.as_str()), Some("if p1"));
}

#[test]
fn stepping_back_undoes_answers_and_reset_clears_the_score() {
    let mut s = kinds(3);
    next_question(&mut s);
    s.show_warp();
    next_question(&mut s);
    s.check_warp(&WarpAnswer {
        lanes: HIGH,
        stack: StackChange::ChangeTop,
        saved: 0,
    });
    assert_eq!(s.warp_score().text(), "1 of 2 right, 1 shown");
    // Back over the else: its answer is undone, and the next step asks it again.
    assert!(s.step_back());
    assert_eq!(s.warp_score().text(), "0 of 1 right, 1 shown");
    assert_eq!(next_question(&mut s).as_deref(), Some("else"));
    s.reset();
    assert_eq!(s.warp_score().asked(), 0);
    assert!(s.warp_on(), "the switch outlives the run");
}

#[test]
fn a_mask_question_on_a_control_flow_line_is_asked_first_and_its_reveal_runs_it() {
    let source = "\
.kernel both
.registers 4
    mov_sr  r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1                 ; ?mask
        mov_imm r2, 1
    endif
    halt
.end
";
    let mut s = session(source, 4, 4);
    s.set_warp_on(true);
    s.run_all();
    assert!(s.open_question().is_some());
    assert!(s.warp_question().is_none());
    s.check_answer(&crate::Answer::Lanes(0b11));
    assert_eq!(
        s.current_line(),
        Some(7),
        "the reveal ran the if, not asked it again"
    );
    assert!(s.warp_question().is_none());
    assert_eq!(next_question(&mut s).as_deref(), Some("endif"));
}

#[test]
fn step_over_and_step_out_stop_at_the_questions_inside_what_they_run() {
    let mut s = kinds(3);
    assert_eq!(next_question(&mut s).as_deref(), Some("if p1"));
    s.show_warp();
    // Inside the `if`: Step out would run to its `endif`, but the `else` on the way asks.
    assert!(s.step_out());
    assert!(matches!(
        s.run_slice(1000),
        RunProgress::Paused { line: 12 }
    ));
    assert_eq!(s.warp_question().map(|q| q.code.as_str()), Some("else"));
    s.show_warp();
    assert_eq!(next_question(&mut s).as_deref(), Some("endif"));
    s.show_warp();
    // On the `loop`, which asks first; once shown, Step over runs the body and stops at the
    // first question in it.
    assert_eq!(next_question(&mut s).as_deref(), Some("loop"));
    s.show_warp();
    assert!(s.step_over());
    assert!(matches!(s.run_slice(1000), RunProgress::Paused { .. }));
    assert_eq!(
        s.warp_question().map(|q| q.code.as_str()),
        Some("@p2 continue p3")
    );
}
