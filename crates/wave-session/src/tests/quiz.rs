//! Predict-then-reveal questions: where they stop, how answers are judged, what is revealed.

use super::session;
use crate::{value_matches, Answer, RunProgress, RunState, Session};
use wave_engine::syntax::questions::QuestionKind;

/// Lanes 0-2 take the `if`; the question on the `if` line asks which lanes run after it, the
/// own-line `?next` belongs to the `else`, `?stack` to the `endif`, `?value r3` to the add.
const QUIZ: &str = "\
.kernel quiz
.registers 8
    mov_sr  r0, sr_lane_id
    mov_imm r1, 3
    icmp_lt p1, r0, r1
    if p1                  ; ?mask
        mov_imm r2, 10
    ; ?next
    else
        mov_imm r2, 20
    endif                  ; ?stack
    iadd r3, r2, r0        ; ?value r3
    halt
.end
";

fn quiz() -> Session {
    session(QUIZ, 8, 8)
}

fn open_kind(s: &Session) -> Option<QuestionKind> {
    s.open_question().map(|q| q.kind)
}

#[test]
fn stepping_stops_at_a_question_before_its_instruction_and_waits_for_the_answer() {
    let mut s = quiz();
    s.step();
    s.step();
    assert!(s.step(), "the compare runs");
    assert_eq!(open_kind(&s), Some(QuestionKind::Mask));
    assert_eq!(s.open_question().map(|q| q.line), Some(6));
    assert_eq!(s.status_text(), "paused at line 6 for a question");
    let steps = s.step_count();
    assert!(!s.step(), "nothing runs while the question is open");
    assert_eq!(s.run_slice(1000), RunProgress::Idle);
    assert_eq!(s.step_count(), steps);

    let reveal = s.check_answer(&Answer::Lanes(0b111)).expect("a reveal");
    assert_eq!(reveal.correct, Some(true));
    assert!(
        reveal
            .text
            .starts_with("Right: lanes 0-2 are active. Why: lanes 0-2 take the if side"),
        "{}",
        reveal.text
    );
    assert_eq!(s.current_line(), Some(7), "the if ran");
    assert_eq!(s.score().right, 1);
}

#[test]
fn a_wrong_mask_says_what_was_said_and_what_is_true_lane_by_lane() {
    let mut s = quiz();
    s.run_all();
    assert_eq!(open_kind(&s), Some(QuestionKind::Mask));
    let reveal = s.check_answer(&Answer::Lanes(0b1111)).expect("a reveal");
    assert_eq!(reveal.correct, Some(false));
    assert_eq!(reveal.expected_lanes, 0b111);
    assert_eq!(reveal.predicted_lanes, Some(0b1111));
    assert!(
        reveal
            .text
            .starts_with("Not quite: you said lanes 0-3, but lanes 0-2 are active."),
        "{}",
        reveal.text
    );
    assert_eq!(s.score().wrong, 1);
}

#[test]
fn an_own_line_question_belongs_to_the_next_instruction() {
    let mut s = quiz();
    assert_eq!(
        s.question_stops(),
        vec![
            (6, QuestionKind::Mask),
            (9, QuestionKind::Next),
            (11, QuestionKind::Stack),
            (12, QuestionKind::Value(3))
        ]
    );
    s.run_all();
    s.skip_question();
    assert_eq!(s.run_all(), RunProgress::Paused { line: 9 });
    assert_eq!(open_kind(&s), Some(QuestionKind::Next));
    // Lanes 3-7 run the else side: the next line is 10.
    let wrong = s.check_answer(&Answer::Line(Some(11))).expect("a reveal");
    assert_eq!(wrong.correct, Some(false));
    assert!(
        wrong
            .text
            .starts_with("Not quite: you said line 11, but line 10 runs next."),
        "{}",
        wrong.text
    );
}

#[test]
fn runs_stop_at_every_question_once_and_reset_asks_again() {
    let mut s = quiz();
    let mut asked = Vec::new();
    loop {
        // A reveal's step may arrive at the next question at once.
        let progress = match s.open_question() {
            Some(question) => RunProgress::Paused {
                line: question.line,
            },
            None => s.run_all(),
        };
        match progress {
            RunProgress::Paused { line } => {
                asked.push(line);
                let kind = open_kind(&s).expect("a run pauses only for the questions here");
                let answer = match kind {
                    QuestionKind::Mask => Answer::Lanes(0b111),
                    QuestionKind::Next => Answer::Line(Some(10)),
                    QuestionKind::Stack => Answer::Depth(0),
                    QuestionKind::Value(_) => Answer::Value("10".to_string()),
                };
                assert_eq!(
                    s.check_answer(&answer).and_then(|r| r.correct),
                    Some(true),
                    "line {line}"
                );
            }
            RunProgress::Finished => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(asked, vec![6, 9, 11, 12]);
    assert_eq!(s.state(), &RunState::Finished);
    assert_eq!(s.score().right, 4);
    s.reset();
    assert_eq!(s.run_all(), RunProgress::Paused { line: 6 });
}

#[test]
fn stack_and_value_questions_are_judged_on_the_state_after_the_instruction() {
    let mut s = quiz();
    assert!(s.select_lane(5));
    s.set_questions_on(false);
    s.run_to_line(11);
    s.run_all();
    s.set_questions_on(true);
    assert!(s.step(), "standing on a question asks it");
    assert_eq!(open_kind(&s), Some(QuestionKind::Stack));
    let wrong = s.check_answer(&Answer::Depth(1)).expect("a reveal");
    assert!(
        wrong
            .text
            .starts_with("Not quite: you said 1, but the stack is 0 deep."),
        "{}",
        wrong.text
    );
    // Its step arrived at the next question.
    assert_eq!(open_kind(&s), Some(QuestionKind::Value(3)));
    assert_eq!(s.open_question().map(|q| q.lane), Some(5));
    // Lane 5 took the else side: r3 = 20 + 5.
    let right = s
        .check_answer(&Answer::Value("0x19".to_string()))
        .expect("a reveal");
    assert_eq!(right.correct, Some(true), "{}", right.text);
}

#[test]
fn an_answer_of_the_wrong_kind_is_refused_and_the_question_stays() {
    let mut s = quiz();
    s.run_all();
    assert_eq!(s.check_answer(&Answer::Depth(1)), None);
    assert_eq!(open_kind(&s), Some(QuestionKind::Mask));
}

#[test]
fn with_questions_off_nothing_stops() {
    let mut s = quiz();
    s.set_questions_on(false);
    assert_eq!(s.run_all(), RunProgress::Finished);
    assert_eq!(s.score().asked(), 0);
}

#[test]
fn going_back_before_a_question_asks_it_again_on_the_way_forward() {
    let mut s = quiz();
    s.run_all();
    s.skip_question();
    assert_eq!(s.score().skipped, 1);
    assert!(s.step_back());
    assert_eq!(s.open_question(), None, "moving in time asks nothing");
    assert!(s.step());
    assert_eq!(open_kind(&s), Some(QuestionKind::Mask));
    assert!(s.step_back());
    assert!(s.step_back());
    assert_eq!(s.current_line(), Some(4));
    s.step();
    assert_eq!(open_kind(&s), None, "the mov_imm ran");
    s.step();
    assert_eq!(
        open_kind(&s),
        Some(QuestionKind::Mask),
        "the compare ran, and the if asks"
    );
}

#[test]
fn typed_values_are_read_as_a_learner_writes_them() {
    assert!(value_matches("25", 25));
    assert!(value_matches("-1", u32::MAX));
    assert!(value_matches("0x19", 25));
    assert!(value_matches("1.5", 1.5f32.to_bits()));
    assert!(value_matches(" 1_000 ", 1000));
    assert!(
        !value_matches("0", 0x8000_0000),
        "-0.0 is not 0 unless typed as a float"
    );
    assert!(!value_matches("twelve", 12));
    assert!(!value_matches("4294967296", 0));
}

#[test]
fn every_lesson_runs_through_its_questions_to_the_same_result() {
    use crate::examples::examples;
    for example in examples().iter().filter(|e| e.is_lesson()) {
        let mut s = Session::from_example(example);
        let mut asked = 0;
        for _ in 0..100 {
            if s.open_question().is_some() {
                let reveal = s.skip_question().expect("a reveal");
                assert!(reveal.text.starts_with("Skipped: "), "{}", reveal.text);
                asked += 1;
            } else if s.run_all() == RunProgress::Finished {
                break;
            }
        }
        assert_eq!(s.state(), &RunState::Finished, "{}", example.id);
        assert!(asked >= 1, "{} asked nothing", example.id);
        assert_eq!(
            super::words(&s, 0, example.expected.len()),
            example.expected,
            "{}",
            example.id
        );
    }
}
