//! "Be the warp", as the session drives it (see [`crate::warp`]): asking before each
//! control-flow instruction of the selected wave, and grading the learner's performance of it
//! against the engine's own run of it.

use crate::run::RunState;
use crate::warp::{
    hint, is_control_flow, mistakes, outcome_of, truth_text, WarpAnswer, WarpQuestion, WarpScore,
    WarpVerdict,
};

use super::Session;

impl Session {
    /// A question of either kind is open: nothing runs until it is answered (autoplay stops).
    pub fn asking(&self) -> bool {
        self.teaching.asking()
    }

    /// Whether Be the warp is on (the page's "Be the warp" switch).
    pub fn warp_on(&self) -> bool {
        self.teaching.warp().on()
    }

    /// Turns Be the warp on or off. Turned on, the wave is asked at once when it stands at a
    /// control-flow instruction; turned off, the open instruction is left to run.
    pub fn set_warp_on(&mut self, on: bool) {
        self.teaching.warp_mut().set_on(on);
        if on {
            self.open_question_here();
        }
    }

    /// The control-flow instruction the selected wave is stopped at, to be performed.
    pub fn warp_question(&self) -> Option<&WarpQuestion> {
        self.teaching.warp().open()
    }

    /// The verdict on the last performed or shown instruction (or the last wrong try, while the
    /// question stays open), until the next command.
    pub fn warp_verdict(&self) -> Option<&WarpVerdict> {
        self.teaching.warp().verdict()
    }

    /// The instructions performed right and shown in this run.
    pub fn warp_score(&self) -> WarpScore {
        self.teaching.warp().score()
    }

    /// The lines a run stops at while Be the warp is on: every control-flow instruction's.
    pub(super) fn warp_lines(&self) -> Vec<u32> {
        if !self.teaching.warp().on() {
            return Vec::new();
        }
        let Some(kernel) = self.kernel() else {
            return Vec::new();
        };
        kernel
            .code
            .iter()
            .zip(&kernel.lines)
            .filter(|(instr, _)| is_control_flow(instr))
            .map(|(_, line)| *line)
            .collect()
    }

    /// Opens a Be the warp question when it is on and the selected wave stands at a
    /// control-flow instruction not performed yet at this step. Returns true when one opened.
    pub(super) fn ask_warp_here(&mut self) -> bool {
        if !self.teaching.warp().on() {
            return false;
        }
        let Some(wave) = self.selected_wave() else {
            return false;
        };
        if wave.is_done() {
            return false;
        }
        let Some(instr) = self.kernel().and_then(|k| k.code.get(wave.pc() as usize)) else {
            return false;
        };
        if !is_control_flow(instr) {
            return false;
        }
        let active_before = crate::view::active_lanes(wave);
        let frames_before = wave.stack().to_vec();
        let Some(line) = self.current_line() else {
            return false;
        };
        let question = WarpQuestion {
            line,
            code: self.build.code_text(line),
            step: self.step_count(),
            active_before,
            tries: 0,
            last_try: None,
            frames_before,
        };
        self.teaching.warp_mut().ask(question)
    }

    /// Grades `answer` to the open question: runs the instruction on the engine and compares
    /// the wave it leaves with the answer. Right, the step stays and the verdict says why; wrong,
    /// the step is taken back and the question stays open for another try. Returns the verdict,
    /// or `None` when no question is open.
    pub fn check_warp(&mut self, answer: &WarpAnswer) -> Option<WarpVerdict> {
        let question = self.teaching.warp_mut().take_open()?;
        let op = self
            .kernel()
            .and_then(|k| k.code.get(self.pc_of_question()?))
            .map(|i| i.op);
        let landing = self.run.landing(question.step);
        if !self.step_now() {
            self.teaching.warp_mut().reopen(question);
            return None;
        }
        let truth = outcome_of(&question.frames_before, self.selected_wave());
        let wrong = mistakes(answer, &truth);
        let width = self.run.wave_width();
        if wrong.is_empty() {
            let why = self.caption().sentence;
            let verdict = WarpVerdict {
                line: question.line,
                correct: Some(true),
                text: format!("Right: {}. Why: {why}.", truth_text(&truth, width)),
            };
            self.teaching.warp_mut().record(question.step, true);
            self.teaching.warp_mut().set_verdict(Some(verdict.clone()));
            return Some(verdict);
        }
        // Take the step back, so that the views show the wave before it again.
        self.arrive(question.step, landing);
        let text = format!(
            "Not quite: look again at {}. Think of the rule: {}. Try again, or press Show me.",
            join(&wrong),
            op.map_or("the executing lanes follow the instruction", hint)
        );
        let verdict = WarpVerdict {
            line: question.line,
            correct: Some(false),
            text: text.clone(),
        };
        let again = WarpQuestion {
            tries: question.tries + 1,
            last_try: Some(text),
            ..question
        };
        self.teaching.warp_mut().reopen(again);
        self.teaching.warp_mut().set_verdict(Some(verdict.clone()));
        Some(verdict)
    }

    /// "Show me": runs the open question's instruction and says what it did, counted as shown.
    pub fn show_warp(&mut self) -> Option<WarpVerdict> {
        let question = self.teaching.warp_mut().take_open()?;
        if !self.step_now() {
            self.teaching.warp_mut().reopen(question);
            return None;
        }
        let truth = outcome_of(&question.frames_before, self.selected_wave());
        let why = self.caption().sentence;
        let verdict = WarpVerdict {
            line: question.line,
            correct: None,
            text: format!(
                "Shown: {}. Why: {why}.",
                truth_text(&truth, self.run.wave_width())
            ),
        };
        self.teaching.warp_mut().record(question.step, false);
        self.teaching.warp_mut().set_verdict(Some(verdict.clone()));
        Some(verdict)
    }

    /// The selected wave's next instruction, while it can run.
    fn pc_of_question(&self) -> Option<usize> {
        if !self.run.state().can_run() || self.run.state() == RunState::Running {
            return None;
        }
        Some(self.selected_wave().filter(|w| !w.is_done())?.pc() as usize)
    }
}

/// "the active lanes and the stack".
fn join(parts: &[&str]) -> String {
    match parts {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
