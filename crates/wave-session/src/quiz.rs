//! Predict, then reveal: the kernel's `; ?mask`, `; ?next`, `; ?stack` and `; ?value rN`
//! comments stop the selected wave before the instruction they belong to, and the learner says
//! what that instruction will do before it runs.
//!
//! A question written on an instruction's line belongs to that instruction; one on a line of
//! its own belongs to the next instruction below it. Each is asked once per run of the machine
//! (Reset asks again); moving back in time to or before a question asks it again on the way
//! forward.
//! While a question is open nothing runs: "Check answer" or "Skip question" runs the
//! instruction, compares, and leaves a [`Reveal`] on show.

use std::collections::BTreeMap;

use wave_engine::machine::Wave;
use wave_engine::syntax::questions::QuestionKind;

use crate::build::Build;
use crate::text::lanes_phrase;
use crate::view::active_lanes;
use crate::warp::Warp;

/// The question the selected wave is stopped at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenQuestion {
    pub kind: QuestionKind,
    /// The line of the instruction it asks about.
    pub line: u32,
    /// The lane a `?value` question asks about (the selected lane when it opened).
    pub lane: u32,
    /// The question as a sentence.
    pub prompt: String,
}

/// A learner's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `?mask`: the lanes predicted to be active.
    Lanes(u64),
    /// `?next`: the line predicted to run next (`None`: the wave finishes).
    Line(Option<u32>),
    /// `?stack`: the predicted depth.
    Depth(u32),
    /// `?value`: the predicted value, as typed (decimal, negative, `0x…` hex, or a float).
    Value(String),
}

/// What a checked or skipped question revealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    pub kind: QuestionKind,
    pub line: u32,
    /// `Some(true)` right, `Some(false)` wrong, `None` skipped.
    pub correct: Option<bool>,
    /// For `?mask`: the lanes active after the instruction, and the lanes the learner said.
    pub expected_lanes: u64,
    pub predicted_lanes: Option<u64>,
    /// The verdict and the reason, e.g. "Not quite: you said lanes 0-3, but lanes 0-2 are
    /// active. Why: …".
    pub text: String,
}

/// Right, wrong and skipped answers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub right: u32,
    pub wrong: u32,
    pub skipped: u32,
}

impl Score {
    pub fn add(&mut self, correct: Option<bool>) {
        match correct {
            Some(true) => self.right += 1,
            Some(false) => self.wrong += 1,
            None => self.skipped += 1,
        }
    }

    pub fn asked(&self) -> u32 {
        self.right + self.wrong + self.skipped
    }
}

/// What an answer to `kind` is about, for prompts: "which lanes will be active after it?".
pub fn prompt(kind: QuestionKind, line: u32, lane: u32) -> String {
    match kind {
        QuestionKind::Mask => {
            format!(
                "Which lanes will be active after line {line} runs? Toggle the lanes, then check."
            )
        }
        QuestionKind::Next => format!("Which line runs next after line {line}?"),
        QuestionKind::Stack => {
            format!("How deep will the divergence stack be after line {line} runs?")
        }
        QuestionKind::Value(r) => {
            format!("What will lane {lane} hold in r{r} after line {line} runs?")
        }
    }
}

/// Reads a typed value as the 32 bits a register holds: decimal (negative too), `0x` hex, or a
/// float (which compares as f32 bits).
pub fn parse_value(text: &str) -> Option<u32> {
    let text = text.trim().replace('_', "");
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u32::from_str_radix(hex, 16).ok();
    }
    if let Ok(n) = text.parse::<i64>() {
        return (i64::from(i32::MIN)..=i64::from(u32::MAX))
            .contains(&n)
            .then_some(n as u32);
    }
    text.parse::<f32>().ok().map(f32::to_bits)
}

/// The learner's part: whether questions stop the run, where they stop it, the question open
/// now, what the last one revealed, which were asked in this run, and the score.
#[derive(Debug)]
pub(crate) struct Teaching {
    /// Whether the source's questions stop the run.
    questions_on: bool,
    /// Where they stop the selected wave, for the running kernel.
    question_stops: Vec<(u32, QuestionKind)>,
    /// The question the selected wave is stopped at.
    open_question: Option<OpenQuestion>,
    /// What the last answered or skipped question revealed, until the next command.
    reveal: Option<Reveal>,
    /// Lines whose question was asked in this run, with the step it was asked at.
    asked: BTreeMap<u32, u64>,
    score: Score,
    /// "Be the warp": the control-flow instructions the learner performs.
    warp: Warp,
}

impl Default for Teaching {
    fn default() -> Self {
        Teaching {
            questions_on: true,
            question_stops: Vec::new(),
            open_question: None,
            reveal: None,
            asked: BTreeMap::new(),
            score: Score::default(),
            warp: Warp::default(),
        }
    }
}

impl Teaching {
    pub(crate) fn questions_on(&self) -> bool {
        self.questions_on
    }

    pub(crate) fn set_questions_on(&mut self, on: bool) {
        self.questions_on = on;
        if !on {
            self.open_question = None;
        }
    }

    pub(crate) fn open_question(&self) -> Option<&OpenQuestion> {
        self.open_question.as_ref()
    }

    /// A question of either kind is open: nothing runs until it is answered.
    pub(crate) fn asking(&self) -> bool {
        self.open_question.is_some() || self.warp.open().is_some()
    }

    /// The line the selected wave is stopped at for a question, of either kind.
    pub(crate) fn asking_line(&self) -> Option<u32> {
        self.open_question
            .as_ref()
            .map(|q| q.line)
            .or(self.warp.open().map(|q| q.line))
    }

    pub(crate) fn warp(&self) -> &Warp {
        &self.warp
    }

    pub(crate) fn warp_mut(&mut self) -> &mut Warp {
        &mut self.warp
    }

    /// Closes the open question, returning it.
    pub(crate) fn take_question(&mut self) -> Option<OpenQuestion> {
        self.open_question.take()
    }

    pub(crate) fn reveal(&self) -> Option<&Reveal> {
        self.reveal.as_ref()
    }

    /// A new command: what the last question revealed is no longer on show.
    pub(crate) fn clear_reveal(&mut self) {
        self.reveal = None;
        self.warp.set_verdict(None);
    }

    pub(crate) fn score(&self) -> Score {
        self.score
    }

    /// Counts `reveal`'s answer and keeps it on show.
    pub(crate) fn record(&mut self, reveal: Reveal) {
        self.score.add(reveal.correct);
        self.reveal = Some(reveal);
    }

    pub(crate) fn question_stops(&self) -> &[(u32, QuestionKind)] {
        &self.question_stops
    }

    /// Works out where `build`'s questions stop the selected wave: an own-line question belongs
    /// to the next instruction.
    pub(crate) fn find_stops(&mut self, build: &Build) {
        self.question_stops = if build.program_current() {
            build
                .question_lines()
                .into_iter()
                .filter_map(|(line, kind)| Some((build.instruction_line_at_or_after(line)?, kind)))
                .collect()
        } else {
            Vec::new()
        };
    }

    /// The question on `line` not yet asked in this run, when questions are on.
    fn unasked_question_at(&self, line: u32) -> Option<QuestionKind> {
        if !self.questions_on || self.asked.contains_key(&line) {
            return None;
        }
        self.question_stops
            .iter()
            .find(|(at, _)| *at == line)
            .map(|(_, kind)| *kind)
    }

    /// Lines whose question has not been asked yet (a run stops before them).
    pub(crate) fn unasked_question_lines(&self) -> Vec<u32> {
        if !self.questions_on {
            return Vec::new();
        }
        self.question_stops
            .iter()
            .map(|(line, _)| *line)
            .filter(|line| !self.asked.contains_key(line))
            .collect()
    }

    /// Opens the question of `line` about `lane`, at step `step`, if it has one not yet asked.
    /// Returns true when one opened.
    pub(crate) fn ask_at(&mut self, line: u32, step: u64, lane: u32) -> bool {
        let Some(kind) = self.unasked_question_at(line) else {
            return false;
        };
        self.asked.insert(line, step);
        self.open_question = Some(OpenQuestion {
            kind,
            line,
            lane,
            prompt: prompt(kind, line, lane),
        });
        true
    }

    /// Forgets the questions asked at or after `step` (time went back to or before them: the
    /// next step forward asks them again) and closes the open one.
    pub(crate) fn forget_from(&mut self, step: u64) {
        self.open_question = None;
        self.reveal = None;
        self.asked.retain(|_, asked_at| *asked_at < step);
        self.warp.forget_from(step);
    }

    /// A new run: nothing asked, nothing open, nothing revealed (the score stays).
    pub(crate) fn restart(&mut self) {
        self.open_question = None;
        self.reveal = None;
        self.asked.clear();
        self.warp.restart();
    }
}

/// What `question` revealed once its instruction ran: `wave` is the selected wave now (of
/// `width` lanes), `next` the line it runs next, `why` the step's caption.
pub(crate) fn reveal_of(
    question: &OpenQuestion,
    answer: Option<&Answer>,
    wave: Option<&Wave>,
    width: u32,
    next: Option<u32>,
    why: &str,
) -> Reveal {
    let finished = wave.is_none_or(|w| w.is_done());
    let active = wave.map_or(0, active_lanes);
    let (correct, truth, said) = match question.kind {
        QuestionKind::Mask => {
            let said = match answer {
                Some(Answer::Lanes(mask)) => Some(*mask),
                _ => None,
            };
            (
                said.map(|m| m == active),
                format!(
                    "{} {} active",
                    lanes_phrase(active, width),
                    if active.count_ones() > 1 { "are" } else { "is" }
                ),
                said.map(|m| lanes_phrase(m, width)),
            )
        }
        QuestionKind::Next => {
            let next = if finished { None } else { next };
            let said = match answer {
                Some(Answer::Line(line)) => Some(*line),
                _ => None,
            };
            let name = |line: Option<u32>| match line {
                Some(line) => format!("line {line}"),
                None => "no line (the wave finishes)".to_string(),
            };
            (
                said.map(|l| l == next),
                format!("{} runs next", name(next)),
                said.map(name),
            )
        }
        QuestionKind::Stack => {
            let depth = wave.map_or(0, |w| w.stack().len() as u32);
            let said = match answer {
                Some(Answer::Depth(d)) => Some(*d),
                _ => None,
            };
            (
                said.map(|d| d == depth),
                format!("the stack is {depth} deep"),
                said.map(|d| d.to_string()),
            )
        }
        QuestionKind::Value(register) => {
            let value = wave
                .filter(|w| u32::from(register) < w.register_count())
                .and_then(|w| w.row(register).get(question.lane as usize).copied())
                .unwrap_or(0);
            let said = match answer {
                Some(Answer::Value(text)) => Some(text.trim().to_string()),
                _ => None,
            };
            (
                said.as_deref().map(|t| value_matches(t, value)),
                format!(
                    "lane {} holds {} in r{register}",
                    question.lane,
                    shown_value(value)
                ),
                said,
            )
        }
    };
    let verdict = match (correct, said) {
        (Some(true), _) => format!("Right: {truth}."),
        (Some(false), Some(said)) => format!("Not quite: you said {said}, but {truth}."),
        _ => format!("Skipped: {truth}."),
    };
    Reveal {
        kind: question.kind,
        line: question.line,
        correct,
        expected_lanes: active,
        predicted_lanes: match answer {
            Some(Answer::Lanes(mask)) => Some(*mask),
            _ => None,
        },
        text: format!("{verdict} Why: {why}."),
    }
}

pub(crate) fn answer_fits(kind: QuestionKind, answer: &Answer) -> bool {
    matches!(
        (kind, answer),
        (QuestionKind::Mask, Answer::Lanes(_))
            | (QuestionKind::Next, Answer::Line(_))
            | (QuestionKind::Stack, Answer::Depth(_))
            | (QuestionKind::Value(_), Answer::Value(_))
    )
}

/// A register's bits as a learner would write them: the integer, and the float when the bits
/// look like one.
fn shown_value(bits: u32) -> String {
    let float = f32::from_bits(bits);
    let looks_float =
        bits > 0x0100_0000 && float.is_finite() && float.abs() >= 1e-6 && float.abs() < 1e9;
    if looks_float && (bits as i32).unsigned_abs() > 1 << 24 {
        format!("{} (as f32: {float})", bits as i32)
    } else {
        (bits as i32).to_string()
    }
}

/// A typed value matches a register when it is the same 32 bits, or, typed as a float (with a
/// point or an exponent), the same f32 value.
pub fn value_matches(typed: &str, held: u32) -> bool {
    let Some(bits) = parse_value(typed) else {
        return false;
    };
    let float_typed = typed.contains(['.', 'e', 'E']) && !typed.trim().starts_with("0x");
    bits == held || (float_typed && f32::from_bits(bits) == f32::from_bits(held))
}
