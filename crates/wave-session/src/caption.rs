//! The step caption: one plain sentence on what the last command did to the selected wave ("`if
//! p1` at line 10: lanes 0, 2, 4, 6 take the if side; lanes 1, 3, 5, 7 wait at else (line 12);
//! stack depth 1").
//!
//! It is built from what the views already keep for a step (the selected wave before the
//! command, the command's events and departures from the spec, the machine now), so time
//! travel, which rebuilds those, shows the same words a step first showed.

use wave_engine::instr::{Instr, Op};
use wave_engine::machine::{
    Behaviour, DepartureEvent, EventKind, FrameKind, LaneSource, Wave, WaveOpFlow,
};

use crate::shown::Shown;
use crate::text::lanes_phrase;

/// What the caption says about a step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Caption {
    /// The instruction's source text, when the step ran one instruction of the selected wave.
    pub code: Option<String>,
    /// Its source line (0 when there is none).
    pub line: u32,
    /// The sentence, without the instruction (`text` puts them together).
    pub sentence: String,
}

impl Caption {
    fn plain(sentence: String) -> Self {
        Caption {
            code: None,
            line: 0,
            sentence,
        }
    }

    /// The whole caption as one line of text: "`if p1` at line 10: …".
    pub fn text(&self) -> String {
        match &self.code {
            Some(code) => format!("`{code}` at line {}: {}", self.line, self.sentence),
            None => self.sentence.clone(),
        }
    }
}

/// "1 lane" or "4 lanes".
fn count_phrase(mask: u64) -> String {
    match mask.count_ones() {
        1 => "1 lane".to_string(),
        n => format!("{n} lanes"),
    }
}

/// "1 event", "3 departures".
fn plural(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// The verb after a lane phrase: "lane 3 takes", "lanes 0-2 take".
fn verb(mask: u64, one: &'static str, many: &'static str) -> &'static str {
    if mask.count_ones() == 1 {
        one
    } else {
        many
    }
}

/// The selected wave's control-flow events of the last command, in order.
struct Happened {
    kinds: Vec<(EventKind, u64)>,
}

impl Happened {
    fn find(&self, wanted: impl Fn(EventKind) -> bool) -> Option<(EventKind, u64)> {
        self.kinds.iter().copied().find(|(kind, _)| wanted(*kind))
    }

    fn skipped_to(&self) -> Option<u32> {
        self.kinds.iter().find_map(|(kind, _)| match kind {
            EventKind::Skip { to } => Some(*to),
            _ => None,
        })
    }

    fn has(&self, wanted: EventKind) -> bool {
        self.kinds.iter().any(|(kind, _)| *kind == wanted)
    }
}

impl Shown<'_> {
    /// The caption of the step on show.
    pub(crate) fn caption(&self) -> Caption {
        let Some(machine) = self.run.machine() else {
            return Caption::plain(self.status_text());
        };
        let width = machine.launch().wave_width;
        let Some(wave) = self.selected_wave() else {
            return Caption::plain(self.status_text());
        };
        if self.step_count() == 0 {
            let start = match self.current_line() {
                Some(line) => format!(" at line {line}"),
                None => String::new(),
            };
            return Caption::plain(format!(
                "Nothing has run yet: wave {} starts{start} with {} active.",
                wave.id(),
                lanes_phrase(wave.active(), width)
            ));
        }
        let same_wave = self.view.before_is_selected();
        let (Some(pc), true) = (self.view.before().pc, self.view.single_step() && same_wave) else {
            return Caption::plain(self.many_steps_caption(wave, width));
        };
        let Some(instr) = self.kernel().and_then(|k| k.code.get(pc as usize)).copied() else {
            return Caption::plain(self.many_steps_caption(wave, width));
        };
        let line = self.line_of(pc).unwrap_or(0);
        let happened = Happened {
            kinds: self
                .view
                .events()
                .events
                .iter()
                .filter(|e| {
                    e.wave == self.view.selection().wave || e.kind == EventKind::BarrierRelease
                })
                .map(|e| (e.kind, e.mask))
                .collect(),
        };
        let mut sentence = match self.trapped_here() {
            Some(trap) => trap,
            None => self.instruction_sentence(&instr, wave, width, &happened),
        };
        for departure in self.selected_departures() {
            let lanes = match departure.mask {
                0 => String::new(),
                mask => format!(" for {}", lanes_phrase(mask, width)),
            };
            sentence.push_str(&format!(
                "; this departs from the spec{lanes}: {}",
                departure.departure.sentence()
            ));
        }
        if happened.has(EventKind::WaveDone) {
            sentence.push_str("; the wave is finished");
        }
        if self.run.state() == crate::run::RunState::Finished {
            sentence.push_str("; the run is over");
        }
        Caption {
            code: Some(self.build.code_text(line)),
            line,
            sentence,
        }
    }

    /// The trap's words when the last command stopped the selected wave with one.
    fn trapped_here(&self) -> Option<String> {
        let crate::run::RunState::Trapped(trap) = self.run.state() else {
            return None;
        };
        if trap.wave != self.view.selection().wave {
            return None;
        }
        let lane = trap
            .lane
            .map(|l| format!(" in lane {l}"))
            .unwrap_or_default();
        Some(format!("trapped: {}{lane}; the run stops here", trap.kind))
    }

    /// The selected wave's departures from the spec in the last command.
    fn selected_departures(&self) -> impl Iterator<Item = &DepartureEvent> {
        self.view
            .events()
            .departures
            .iter()
            .map(|(_, departure)| departure)
            .filter(|d| d.wave == self.view.selection().wave)
    }

    fn many_steps_caption(&self, wave: &Wave, width: u32) -> String {
        let ran = self.step_count().saturating_sub(self.view.before().step);
        let where_now = match self.current_line() {
            Some(line) => format!(
                "wave {} is at line {line} with {} active",
                wave.id(),
                lanes_phrase(wave.active(), width)
            ),
            None if wave.is_done() => format!("wave {} is finished", wave.id()),
            None => format!("wave {} has nothing left to run", wave.id()),
        };
        let events = self
            .view
            .events()
            .events
            .iter()
            .filter(|e| e.wave == self.view.selection().wave)
            .count();
        let events = match (events, self.selected_departures().count()) {
            (0, 0) => String::new(),
            (events, 0) => format!(" ({} below)", plural(events, "event")),
            (0, departures) => {
                format!(" ({} from the spec below)", plural(departures, "departure"))
            }
            (events, departures) => format!(
                " ({} and {} from the spec below)",
                plural(events, "event"),
                plural(departures, "departure")
            ),
        };
        if ran == 0 || self.view.before().step > self.step_count() {
            return format!("Step {}: {where_now}.", self.step_count());
        }
        if self.view.before().pc.is_none() && self.view.before().wave == self.view.selection().wave
        {
            let s = if ran == 1 { "" } else { "s" };
            return format!(
                "Wave {} had finished, so the step ran {ran} instruction{s} of the other waves (steps {} to {}).",
                wave.id(),
                self.view.before().step,
                self.step_count()
            );
        }
        let s = if ran == 1 { "" } else { "s" };
        format!(
            "Ran {ran} wave-instruction{s}, steps {} to {}{events}: {where_now}.",
            self.view.before().step,
            self.step_count()
        )
    }

    /// The sentence for one instruction of the selected wave.
    fn instruction_sentence(
        &self,
        instr: &Instr,
        wave: &Wave,
        width: u32,
        happened: &Happened,
    ) -> String {
        let before = self.view.before().active;
        let line_at = |pc: u32| self.line_of(pc).unwrap_or(0);
        let depth = format!("stack depth {}", wave.stack().len());
        // Where the wave jumps when no lane is left on this path.
        let skipped = |sentence: &mut String| {
            if let Some(to) = happened.skipped_to() {
                sentence.push_str(&format!(
                    "; no lane is left on this path, so the wave jumps to line {}",
                    line_at(to)
                ));
            }
        };
        // "; 7 lanes go on", then the jump.
        let and_the_rest = |sentence: &mut String, active: u64| {
            if active != 0 {
                sentence.push_str(&format!(
                    "; {} {}",
                    count_phrase(active),
                    verb(active, "goes on", "go on")
                ));
            }
            skipped(sentence);
        };
        match instr.op {
            Op::If => {
                let has_else = instr.imm != instr.target;
                let waits = if has_else {
                    format!("else (line {})", line_at(instr.imm))
                } else {
                    format!("endif (line {})", line_at(instr.target))
                };
                if let Some((EventKind::Diverge { other }, then)) =
                    happened.find(|k| matches!(k, EventKind::Diverge { .. }))
                {
                    format!(
                        "{} {} the if side; {} {} at {waits}; {depth}",
                        lanes_phrase(then, width),
                        verb(then, "takes", "take"),
                        lanes_phrase(other, width),
                        verb(other, "waits", "wait"),
                    )
                } else if happened.skipped_to().is_some() {
                    format!(
                        "no lane takes the if side, so the wave jumps to line {}; {depth}",
                        line_at(instr.imm)
                    )
                } else {
                    format!(
                        "{} {} the if side (no divergence); {depth}",
                        lanes_phrase(wave.active(), width),
                        verb(wave.active(), "takes", "all take")
                    )
                }
            }
            Op::Else => {
                let else_lanes = happened
                    .find(|k| k == EventKind::Else)
                    .map_or(0, |(_, m)| m);
                let end = wave.stack().last().map_or(0, |f| line_at(f.end_pc));
                if else_lanes == 0 {
                    let to = happened.skipped_to().map_or(end, line_at);
                    format!("no lane waits for the else side, so the wave jumps to line {to}")
                } else if before == 0 {
                    format!(
                        "{} {} the else side; {depth}",
                        lanes_phrase(else_lanes, width),
                        verb(else_lanes, "runs", "run"),
                    )
                } else {
                    format!(
                        "{} {} the else side; {} {} at endif (line {end}); {depth}",
                        lanes_phrase(else_lanes, width),
                        verb(else_lanes, "runs", "run"),
                        lanes_phrase(before, width),
                        verb(before, "waits", "wait"),
                    )
                }
            }
            Op::EndIf => match happened.find(|k| k == EventKind::Pop(FrameKind::If)) {
                Some((_, 0)) => {
                    let mut sentence = format!(
                        "none of the lanes that entered the if is left (they broke out, continued or halted); {depth}"
                    );
                    skipped(&mut sentence);
                    sentence
                }
                Some((_, entry)) => {
                    let mut sentence = format!(
                        "{} {}; {depth}",
                        lanes_phrase(entry, width),
                        verb(entry, "goes on", "reconverge and go on together"),
                    );
                    skipped(&mut sentence);
                    sentence
                }
                None => depth,
            },
            Op::Loop => format!(
                "{} {} the loop; {depth}",
                lanes_phrase(wave.active(), width),
                verb(wave.active(), "enters", "enter")
            ),
            Op::EndLoop => {
                if let Some((_, next)) = happened.find(|k| k == EventKind::Iterate) {
                    let rejoin = next & !before;
                    let rejoined = if rejoin != 0 && before != 0 {
                        format!(" ({} back from continue)", lanes_phrase(rejoin, width))
                    } else {
                        String::new()
                    };
                    format!(
                        "{} {} another iteration{rejoined}, back at line {}; {depth}",
                        lanes_phrase(next, width),
                        verb(next, "starts", "start"),
                        self.current_line().unwrap_or(0)
                    )
                } else if let Some((_, entry)) =
                    happened.find(|k| k == EventKind::Pop(FrameKind::Loop))
                {
                    let mut sentence = format!(
                        "the loop is over: {} {} after it; {depth}",
                        lanes_phrase(entry, width),
                        verb(entry, "goes on", "reconverge and go on"),
                    );
                    skipped(&mut sentence);
                    sentence
                } else {
                    depth
                }
            }
            Op::Break | Op::Continue => {
                let is_break = instr.op == Op::Break;
                let kind = if is_break {
                    EventKind::Break
                } else {
                    EventKind::Continue
                };
                let end = wave
                    .innermost_loop()
                    .map_or(0, |i| line_at(wave.stack()[i].end_pc));
                let mut sentence = match happened.find(|k| k == kind) {
                    Some((_, leaving)) if is_break => format!(
                        "{} {} the loop and {} for it to end (endloop at line {end})",
                        lanes_phrase(leaving, width),
                        verb(leaving, "leaves", "leave"),
                        verb(leaving, "waits", "wait"),
                    ),
                    Some((_, leaving)) => format!(
                        "{} {} the rest of this iteration and {} at endloop (line {end})",
                        lanes_phrase(leaving, width),
                        verb(leaving, "skips", "skip"),
                        verb(leaving, "waits", "wait"),
                    ),
                    None if is_break => "no lane breaks".to_string(),
                    None => "no lane continues".to_string(),
                };
                and_the_rest(&mut sentence, wave.active());
                sentence
            }
            Op::Halt => {
                let mut sentence = match happened.find(|k| k == EventKind::Halt) {
                    Some((_, lanes)) => format!(
                        "{} {}",
                        lanes_phrase(lanes, width),
                        verb(lanes, "halts", "halt")
                    ),
                    None => "no lane halts".to_string(),
                };
                and_the_rest(&mut sentence, wave.active());
                sentence
            }
            Op::Barrier => {
                if happened.has(EventKind::BarrierRelease) {
                    "every wave of the workgroup has reached the barrier: all go on".to_string()
                } else if happened.has(EventKind::BarrierWait) {
                    format!(
                        "wave {} waits here until every wave of the workgroup arrives",
                        wave.id()
                    )
                } else {
                    self.lanes_ran(instr, wave, width)
                }
            }
            Op::Call => format!(
                "{} {} the subroutine at line {} (call depth {})",
                lanes_phrase(wave.active(), width),
                verb(wave.active(), "calls", "call"),
                line_at(instr.target),
                wave.calls().len()
            ),
            Op::Return if happened.has(EventKind::Return) => format!(
                "back to line {} (call depth {})",
                self.current_line().unwrap_or(0),
                wave.calls().len()
            ),
            _ => match &self.view.before().flow {
                Some(flow) => flow_sentence(flow, width),
                None => self.lanes_ran(instr, wave, width),
            },
        }
    }

    /// The short form: which lanes ran the instruction and what changed.
    fn lanes_ran(&self, instr: &Instr, wave: &Wave, width: u32) -> String {
        let before = self.view.before().active;
        let behaviour = self
            .run
            .machine()
            .map_or(Behaviour::Spec, |m| m.behaviour());
        let instr = &crate::view::as_run(behaviour, instr);
        let ran = match instr.guard.predicate() {
            Some((p, negate)) => {
                let held = if negate {
                    !self.view.before().predicates[p as usize]
                } else {
                    self.view.before().predicates[p as usize]
                };
                before & held
            }
            None => before,
        };
        let mut sentence = if ran == 0 {
            "no lane runs it".to_string()
        } else {
            format!("ran on {}", lanes_phrase(ran, width))
        };
        if let Some((p, negate)) = instr.guard.predicate() {
            let idle = before & !ran;
            if idle != 0 {
                let holds = if negate { "is set" } else { "is clear" };
                sentence.push_str(&format!(
                    "; {} {} nothing (p{p} {holds} there)",
                    lanes_phrase(idle, width),
                    verb(idle, "does", "do")
                ));
            }
        }
        let changed = self.changed_registers(wave, width);
        if !changed.is_empty() {
            sentence.push_str("; ");
            sentence.push_str(&changed);
        }
        sentence
    }

    /// "r3 changed on lanes 0-7", for the registers and predicates the last command changed.
    fn changed_registers(&self, wave: &Wave, width: u32) -> String {
        let mut parts = Vec::new();
        for (register, old) in &self.view.before().registers {
            let now = wave.row(*register);
            let mask = (0..width.min(64) as usize)
                .filter(|&lane| old.get(lane) != now.get(lane))
                .fold(0u64, |m, lane| m | 1 << lane);
            if mask != 0 {
                parts.push(format!(
                    "r{register} changed on {}",
                    lanes_phrase(mask, width)
                ));
            }
        }
        for p in 0..4 {
            let flipped = (self.view.before().predicates[p] ^ wave.predicates()[p])
                & wave_engine::machine::lanes_mask(width);
            if flipped != 0 {
                let set = wave.predicates()[p] & wave_engine::machine::lanes_mask(width);
                parts.push(format!("p{p} now holds on {}", lanes_phrase(set, width)));
            }
        }
        parts.truncate(3);
        parts.join(", ")
    }
}

/// Lane moves listed in a caption before "and N more".
const LISTED_MOVES: usize = 8;

/// What a cross-lane instruction moved: "lane 0 read lane 1, lane 1 read lane 0, …".
pub(crate) fn flow_sentence(flow: &WaveOpFlow, width: u32) -> String {
    let executing = flow.mask;
    if executing == 0 {
        return "no lane runs it".to_string();
    }
    let first = executing.trailing_zeros() as usize;
    let result = |lane: usize| flow.results.get(lane).copied().unwrap_or(0);
    match flow.op {
        Op::WaveBroadcast => match flow.sources.get(first) {
            Some(LaneSource::Lane(source)) => format!(
                "lane {source}'s value {} went to {}",
                result(first) as i32,
                lanes_phrase(executing, width)
            ),
            Some(LaneSource::OutOfRange(asked)) => format!(
                "lane {first} asked for lane {asked}, which does not exist: {} get 0",
                lanes_phrase(executing, width)
            ),
            _ => "no lane runs it".to_string(),
        },
        Op::WaveBallot => {
            let voted = match flow.sources.get(first) {
                Some(LaneSource::Lanes(m)) => *m,
                _ => 0,
            };
            format!(
                "{} voted yes, so {} get {:#x}",
                lanes_phrase(voted, width),
                lanes_phrase(executing, width),
                result(first)
            )
        }
        Op::WaveAny | Op::WaveAll => {
            let answer = if result(first) == 1 { "true" } else { "false" };
            let question = if flow.op == Op::WaveAny {
                "does any of them hold its predicate"
            } else {
                "do all of them hold their predicate"
            };
            format!(
                "{} vote ({question}?): {answer} on every one",
                lanes_phrase(executing, width)
            )
        }
        Op::WavePrefixSum => format!(
            "each of {} got the sum of the active lanes before it ({})",
            lanes_phrase(executing, width),
            listed(executing, |lane| format!(
                "lane {lane} gets {}",
                result(lane) as i32
            ))
        ),
        Op::WaveReduceAdd | Op::WaveReduceMin | Op::WaveReduceMax => {
            let what = match flow.op {
                Op::WaveReduceAdd => "sum",
                Op::WaveReduceMin => "minimum",
                _ => "maximum",
            };
            format!(
                "the {what} over {} is {}, and every one of them gets it",
                lanes_phrase(executing, width),
                result(first)
            )
        }
        _ => {
            let moves = listed(executing, |lane| match flow.sources.get(lane) {
                Some(LaneSource::Lane(source)) if flow.mask >> source & 1 == 0 => {
                    format!("lane {lane} read inactive lane {source}")
                }
                Some(LaneSource::Lane(source)) => format!("lane {lane} read lane {source}"),
                Some(LaneSource::OutOfRange(asked)) => {
                    format!("lane {lane} asked for lane {asked} (none: 0)")
                }
                _ => format!("lane {lane} read nothing"),
            });
            moves
        }
    }
}

/// The first few lanes of `mask` described by `each`, then "and N more".
fn listed(mask: u64, each: impl Fn(usize) -> String) -> String {
    let lanes: Vec<usize> = (0..64).filter(|l| mask >> l & 1 == 1).collect();
    let mut parts: Vec<String> = lanes.iter().take(LISTED_MOVES).map(|&l| each(l)).collect();
    if lanes.len() > LISTED_MOVES {
        parts.push(format!("and {} more", lanes.len() - LISTED_MOVES));
    }
    parts.join(", ")
}
