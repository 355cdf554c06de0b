//! Predict, then reveal, as the session drives it: the questions stop the selected wave (see
//! [`crate::quiz`] for the rules), and an answer runs the instruction before it is judged.

use wave_engine::syntax::questions::QuestionKind;

use crate::quiz::{answer_fits, reveal_of, Answer, OpenQuestion, Reveal, Score};
use crate::run::RunState;

use super::Session;

impl Session {
    /// Whether questions stop the run (the page's "Questions" switch).
    pub fn questions_on(&self) -> bool {
        self.teaching.questions_on()
    }

    pub fn set_questions_on(&mut self, on: bool) {
        self.teaching.set_questions_on(on);
    }

    /// The question the selected wave is stopped at, if any.
    pub fn open_question(&self) -> Option<&OpenQuestion> {
        self.teaching.open_question()
    }

    /// What the last checked or skipped question revealed, until the next command.
    pub fn reveal(&self) -> Option<&Reveal> {
        self.teaching.reveal()
    }

    /// The answers given in this session's runs.
    pub fn score(&self) -> Score {
        self.teaching.score()
    }

    /// The lines a `?next` answer can name: each line with an instruction, with its code.
    pub fn line_choices(&self) -> Vec<(u32, String)> {
        let mut lines: Vec<u32> = self.kernel().map(|k| k.lines.clone()).unwrap_or_default();
        lines.sort_unstable();
        lines.dedup();
        lines
            .into_iter()
            .map(|line| (line, self.build.code_text(line)))
            .collect()
    }

    /// The instruction lines that have a question, with it: an own-line question belongs to the
    /// next instruction. Worked out once per compile and configuration (a step asks for them).
    pub fn question_stops(&self) -> &[(u32, QuestionKind)] {
        self.teaching.question_stops()
    }

    /// Opens the question of the line the selected wave is about to run, if it has one not yet
    /// asked. Returns true when one opened (or one is open already).
    pub(super) fn open_question_here(&mut self) -> bool {
        if self.teaching.asking() {
            return true;
        }
        let state = self.run.state();
        if !state.can_run() || state == RunState::Running {
            return false;
        }
        let Some(line) = self.current_line() else {
            return false;
        };
        let step = self.step_count();
        let lane = self.view.selection().lane;
        self.teaching.ask_at(line, step, lane) || self.ask_warp_here()
    }

    /// Checks `answer` against the open question: runs its instruction (one step of the selected
    /// wave), then says whether the answer was right and why. Returns the reveal, or `None` when
    /// no question is open or the answer does not fit it.
    pub fn check_answer(&mut self, answer: &Answer) -> Option<Reveal> {
        let question = self.teaching.open_question()?.clone();
        if !answer_fits(question.kind, answer) {
            return None;
        }
        Some(self.reveal_question(question, Some(answer)))
    }

    /// Reveals the open question's answer without one from the learner.
    pub fn skip_question(&mut self) -> Option<Reveal> {
        let question = self.teaching.open_question()?.clone();
        Some(self.reveal_question(question, None))
    }

    fn reveal_question(&mut self, question: OpenQuestion, answer: Option<&Answer>) -> Reveal {
        self.teaching.take_question();
        // As Step would, without asking again at the instruction the question was about.
        self.teaching.clear_reveal();
        if self.step_now() {
            self.open_question_here();
        }
        let why = self.caption().sentence;
        let reveal = reveal_of(
            &question,
            answer,
            self.selected_wave(),
            self.run.wave_width(),
            self.current_line(),
            &why,
        );
        self.teaching.record(reveal.clone());
        reveal
    }
}
