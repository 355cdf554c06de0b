//! "Be the warp": while it is on, the selected wave stops before each control-flow instruction
//! (`if`, `else`, `endif`, `loop`, `break`, `continue`, `endloop`, `call`, `return`, `halt`, with or
//! without a guard) and the learner performs it: which lanes are active after it, and what
//! happens to the divergence stack (nothing, a push and the lanes the new frame saves, a pop, or
//! a change to the frames).
//!
//! Nothing here knows the rules of control flow. The session runs the instruction on the
//! engine, and the answer is graded against the wave as the engine left it: the active lanes,
//! and the change of stack read from the frames before and after. A wrong answer is taken back
//! (the session goes back to the step before it) so that it can be tried again; "Show me" runs
//! the instruction and tells.

use wave_engine::instr::{Instr, Op};
use wave_engine::machine::{Frame, Wave};

use crate::text::lanes_phrase;
use crate::view::active_lanes;

/// What an instruction does to the divergence stack, as the "Stack" choices name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackChange {
    Nothing,
    Push,
    Pop,
    ChangeTop,
}

impl StackChange {
    /// The choices in the order the page offers them.
    pub const ALL: [StackChange; 4] = [
        StackChange::Nothing,
        StackChange::Push,
        StackChange::Pop,
        StackChange::ChangeTop,
    ];

    /// The choice's name on the page.
    pub fn label(self) -> &'static str {
        match self {
            StackChange::Nothing => "Nothing",
            StackChange::Push => "Push a frame",
            StackChange::Pop => "Pop the frame",
            StackChange::ChangeTop => "Change the top frame",
        }
    }
}

/// The learner's performance of one control-flow instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpAnswer {
    /// The lanes active after the instruction.
    pub lanes: u64,
    pub stack: StackChange,
    /// For a push: the lanes the new frame saves (brings back at its end). Ignored otherwise.
    pub saved: u64,
}

/// What the instruction did, read from the wave before and after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpOutcome {
    pub lanes: u64,
    pub stack: StackChange,
    /// For a push, the new frame's entry lanes; 0 otherwise.
    pub saved: u64,
}

/// The instruction the selected wave stands at, to be performed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpQuestion {
    /// The instruction's source line and text.
    pub line: u32,
    pub code: String,
    /// The step count it was asked at (the instruction has not run yet).
    pub step: u64,
    /// The lanes active before it, where a new answer starts.
    pub active_before: u64,
    /// Answers checked and found wrong so far.
    pub tries: u32,
    /// The verdict on the last wrong answer ("Not quite: …"), while it is tried again.
    pub last_try: Option<String>,
    /// The frames before it, to classify the change of stack once it has run.
    pub(crate) frames_before: Vec<Frame>,
}

impl WarpQuestion {
    /// The question as a sentence.
    pub fn prompt(&self) -> String {
        format!(
            "Be the warp: perform `{}` (line {}). Toggle the lanes active after it, and say what happens to the stack.",
            self.code, self.line
        )
    }
}

/// The verdict on a performed (or shown) instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarpVerdict {
    pub line: u32,
    /// `Some(true)` right, `Some(false)` not quite (the question stays open), `None` shown.
    pub correct: Option<bool>,
    /// "Right: … Why: …", "Not quite: …", "Shown: … Why: …".
    pub text: String,
}

/// Right and shown instructions of this run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarpScore {
    pub right: u32,
    pub shown: u32,
}

impl WarpScore {
    pub fn asked(&self) -> u32 {
        self.right + self.shown
    }

    /// "12 of 14 right, 2 shown".
    pub fn text(&self) -> String {
        format!(
            "{} of {} right, {} shown",
            self.right,
            self.asked(),
            self.shown
        )
    }
}

/// Whether "Be the warp" stops before `instr`: the control-flow instructions, whatever their
/// guard (a predicated form is performed like the plain one).
pub fn is_control_flow(instr: &Instr) -> bool {
    matches!(
        instr.op,
        Op::If
            | Op::Else
            | Op::EndIf
            | Op::Loop
            | Op::Break
            | Op::Continue
            | Op::EndLoop
            | Op::Call
            | Op::Return
            | Op::Halt
    )
}

/// What the instruction did: `after` is the wave once it ran (`None` when there is none), and
/// `before` its frames before. A deeper stack is a push, a shallower one a pop, the same depth
/// with other frames a change.
pub(crate) fn outcome_of(before: &[Frame], after: Option<&Wave>) -> WarpOutcome {
    let lanes = after.filter(|w| !w.is_done()).map_or(0, active_lanes);
    let frames = after.map_or(&[][..], Wave::stack);
    let (stack, saved) = match frames.len().cmp(&before.len()) {
        std::cmp::Ordering::Greater => (StackChange::Push, frames.last().map_or(0, |f| f.entry)),
        std::cmp::Ordering::Less => (StackChange::Pop, 0),
        std::cmp::Ordering::Equal if frames != before => (StackChange::ChangeTop, 0),
        std::cmp::Ordering::Equal => (StackChange::Nothing, 0),
    };
    WarpOutcome {
        lanes,
        stack,
        saved,
    }
}

/// The parts of `answer` that differ from `truth` (empty: right).
pub(crate) fn mistakes(answer: &WarpAnswer, truth: &WarpOutcome) -> Vec<&'static str> {
    let mut wrong = Vec::new();
    if answer.lanes != truth.lanes {
        wrong.push("the active lanes");
    }
    if answer.stack != truth.stack {
        wrong.push("the stack");
    } else if truth.stack == StackChange::Push && answer.saved != truth.saved {
        wrong.push("the lanes the new frame saves");
    }
    wrong
}

/// The truth in words: "lanes 0-3 are active; the stack pushes a frame that saves lanes 0-7".
pub(crate) fn truth_text(truth: &WarpOutcome, width: u32) -> String {
    let lanes = match truth.lanes {
        0 => "no lane is active".to_string(),
        mask => format!(
            "{} {} active",
            lanes_phrase(mask, width),
            if mask.count_ones() > 1 { "are" } else { "is" }
        ),
    };
    let stack = match truth.stack {
        StackChange::Nothing => "the stack does not change".to_string(),
        StackChange::Push => format!(
            "the stack pushes a frame that saves {}",
            lanes_phrase(truth.saved, width)
        ),
        StackChange::Pop => "the stack pops its top frame".to_string(),
        StackChange::ChangeTop => "the stack's frames change".to_string(),
    };
    format!("{lanes}; {stack}")
}

/// What to think about when an answer was wrong, in the caption's words for `op`, without
/// giving the lanes away.
pub(crate) fn hint(op: Op) -> &'static str {
    match op {
        Op::If => "the lanes whose predicate holds take the if side; the others wait at else",
        Op::Else => "the lanes that waited run the else side; the if side's lanes wait at endif",
        Op::EndIf => "the lanes that entered the if reconverge and go on together",
        Op::Loop => "the active lanes enter the loop",
        Op::Break => {
            "the lanes whose predicate holds leave the loop and wait for it to end; the rest go on"
        }
        Op::Continue => {
            "the lanes whose predicate holds skip the rest of this iteration and wait at endloop"
        }
        Op::EndLoop => {
            "lanes still in the loop start another iteration; when none is, the loop is over"
        }
        Op::Call => "the active lanes go to the function together",
        Op::Return => "the lanes go back to the caller; with no caller they end",
        _ => "the executing lanes halt; no frame remembers them",
    }
}

/// Whether Be the warp is on, the instruction it asks about now, the verdict on show, and which
/// instructions of this run were answered (by the step they were asked at).
#[derive(Debug, Default)]
pub(crate) struct Warp {
    on: bool,
    open: Option<WarpQuestion>,
    verdict: Option<WarpVerdict>,
    /// (step asked at, answered right): shown ones are `false`.
    answered: Vec<(u64, bool)>,
}

impl Warp {
    pub(crate) fn on(&self) -> bool {
        self.on
    }

    pub(crate) fn set_on(&mut self, on: bool) {
        self.on = on;
        if !on {
            self.open = None;
        }
    }

    pub(crate) fn open(&self) -> Option<&WarpQuestion> {
        self.open.as_ref()
    }

    pub(crate) fn take_open(&mut self) -> Option<WarpQuestion> {
        self.open.take()
    }

    /// Opens `question`, unless it is off or the instruction at that step was answered already.
    pub(crate) fn ask(&mut self, question: WarpQuestion) -> bool {
        if !self.on || self.answered.iter().any(|(at, _)| *at == question.step) {
            return false;
        }
        self.open = Some(question);
        true
    }

    /// Opens a question again after a wrong answer (time went back to its step).
    pub(crate) fn reopen(&mut self, question: WarpQuestion) {
        self.open = Some(question);
    }

    pub(crate) fn verdict(&self) -> Option<&WarpVerdict> {
        self.verdict.as_ref()
    }

    pub(crate) fn set_verdict(&mut self, verdict: Option<WarpVerdict>) {
        self.verdict = verdict;
    }

    /// Counts the instruction asked at `step` as answered right or shown.
    pub(crate) fn record(&mut self, step: u64, right: bool) {
        self.answered.push((step, right));
    }

    pub(crate) fn score(&self) -> WarpScore {
        let right = self.answered.iter().filter(|(_, r)| *r).count() as u32;
        WarpScore {
            right,
            shown: self.answered.len() as u32 - right,
        }
    }

    /// Time went back to `step`: answers given at or after it are undone.
    pub(crate) fn forget_from(&mut self, step: u64) {
        self.open = None;
        self.verdict = None;
        self.answered.retain(|(at, _)| *at < step);
    }

    /// A new run: nothing open, nothing answered.
    pub(crate) fn restart(&mut self) {
        self.open = None;
        self.verdict = None;
        self.answered.clear();
    }
}
