//! The timeline: the selected wave's lanes over time, one column per instruction it executed
//! (each lane active, or inactive with its reason), marked at its events; zoomed out past
//! [`FINE_STEPS`], one column per stretch with the SIMD efficiency there: up to
//! [`REPLAYED_STEPS`] the window is replayed at full speed in equal stretches, beyond that the
//! history's samples (a sixteenth of its checkpoint spacing) are the stretches.
//!
//! Instruction columns are rebuilt by replaying the visible steps one instruction at a time from
//! the nearest checkpoint, so a window costs about as much as the steps it shows.

use wave_engine::machine::{EventKind, LaneState, Stop, Wave};

use crate::build::Build;
use crate::run::Run;
use crate::text::lanes_text;
use crate::view::View;

/// Widest window, in steps, shown instruction by instruction.
pub const FINE_STEPS: u64 = 4096;
/// Narrowest window, in steps.
pub const MIN_WINDOW: u64 = 16;
/// Widest window, in steps, whose stretches are measured by replaying it (wider ones use the
/// history's samples).
pub const REPLAYED_STEPS: u64 = 16 * FINE_STEPS;
/// Stretches a replayed window is cut into.
const REPLAYED_COLUMNS: u64 = 256;

/// What one lane was doing when an instruction ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneCell {
    Active,
    /// Waiting while the other side of an `if` runs (or the `if` it skipped has no else).
    Waiting,
    /// Broke out of a loop; waits for the loop to end.
    BrokeOut,
    /// Continued; waits for the next iteration.
    Continued,
    Halted,
    /// Beyond the workgroup, or the wave finished.
    Absent,
}

impl LaneCell {
    fn of(state: LaneState) -> LaneCell {
        match state {
            LaneState::Active => LaneCell::Active,
            LaneState::WaitingForElse { .. }
            | LaneState::WaitingAtEndif { .. }
            | LaneState::Inactive => LaneCell::Waiting,
            LaneState::BrokeOut { .. } => LaneCell::BrokeOut,
            LaneState::Continued { .. } => LaneCell::Continued,
            LaneState::Halted => LaneCell::Halted,
            LaneState::OutsideWorkgroup | LaneState::Finished => LaneCell::Absent,
        }
    }

    /// The words the legend and the text alternative use.
    pub fn name(self) -> &'static str {
        match self {
            LaneCell::Active => "active",
            LaneCell::Waiting => "waiting on the other side of an if",
            LaneCell::BrokeOut => "broke out of a loop",
            LaneCell::Continued => "continued to the next iteration",
            LaneCell::Halted => "halted",
            LaneCell::Absent => "outside the workgroup or finished",
        }
    }

    /// Every kind, in legend order.
    pub const ALL: [LaneCell; 6] = [
        LaneCell::Active,
        LaneCell::Waiting,
        LaneCell::BrokeOut,
        LaneCell::Continued,
        LaneCell::Halted,
        LaneCell::Absent,
    ];
}

/// One column of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineColumn {
    /// The first step the column covers (an instruction column: the step its instruction ran
    /// at).
    pub first: u64,
    /// The step a click on the column goes to: right after its instruction ran, or the end of
    /// its stretch.
    pub step: u64,
    /// The instruction's source line (0 for a stretch).
    pub line: u32,
    /// Per lane, for an instruction column; empty for a stretch.
    pub lanes: Vec<LaneCell>,
    /// Active lanes over lane slots in the column, 0..=1.
    pub efficiency: f32,
    /// The selected wave's event at this instruction, if it had one ("diverge", "break", ...).
    pub mark: Option<&'static str>,
}

/// What the timeline shows now.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineView {
    /// The window: steps `first..=last`.
    pub first: u64,
    pub last: u64,
    /// The furthest step known (the end, once the run finished).
    pub known_end: u64,
    pub finished: bool,
    /// The machine's step now.
    pub now: u64,
    /// Lanes of the selected wave (rows of an instruction column).
    pub width: u32,
    pub columns: Vec<TimelineColumn>,
    /// The column that holds the current step.
    pub current: Option<usize>,
    /// Instruction columns (true) or stretches between samples (false).
    pub fine: bool,
}

impl TimelineView {
    /// "step 57 of 120, line 9, 3 of 8 lanes active": the slider's value text.
    pub fn value_text(&self) -> String {
        let of = if self.finished {
            format!(" of {}", self.known_end)
        } else {
            String::new()
        };
        match self.current.and_then(|c| self.columns.get(c)) {
            Some(column) if self.fine => {
                let active = column
                    .lanes
                    .iter()
                    .filter(|c| **c == LaneCell::Active)
                    .count();
                format!(
                    "step {}{of}, line {}, {active} of {} lanes active",
                    self.now,
                    column.line,
                    column.lanes.len()
                )
            }
            Some(column) => format!(
                "step {}{of}, SIMD efficiency {:.0} % around it",
                self.now,
                column.efficiency * 100.0
            ),
            None => format!("step {}{of}", self.now),
        }
    }

    /// A sentence for screen readers on the current column: which lanes do what.
    pub fn description(&self) -> String {
        let Some(column) = self.current.and_then(|c| self.columns.get(c)) else {
            return if self.now == 0 {
                "The start: no instruction has run yet.".to_string()
            } else {
                format!(
                    "Step {}: no instruction of the selected wave in view.",
                    self.now
                )
            };
        };
        if !self.fine {
            return format!(
                "Step {}: SIMD efficiency {:.0} % over steps {} to {}.",
                self.now,
                column.efficiency * 100.0,
                column.first,
                column.step
            );
        }
        let mut parts = Vec::new();
        for kind in LaneCell::ALL {
            let mask = column
                .lanes
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == kind)
                .fold(0u64, |m, (lane, _)| m | 1 << lane);
            if mask != 0 {
                parts.push(format!(
                    "lanes {} {}",
                    lanes_text(mask, self.width),
                    kind.name()
                ));
            }
        }
        let mark = column
            .mark
            .map_or_else(String::new, |m| format!(" Event: {m}."));
        format!(
            "Step {}, line {}: {}.{mark}",
            column.step,
            column.line,
            parts.join("; ")
        )
    }

    /// The step of the column `by` columns from the current one (clamped); before the first
    /// column, moving back goes to the window's start.
    pub fn step_by_columns(&self, by: i64) -> Option<u64> {
        let current = self.current.map_or(-1, |c| c as i64);
        let target = current + by;
        if target < 0 {
            return Some(self.first);
        }
        let target = target.min(self.columns.len() as i64 - 1);
        self.columns
            .get(usize::try_from(target).ok()?)
            .map(|c| c.step)
    }
}

/// Instruction columns already built for one wave of one machine start, covering steps
/// `from..to` (replays are deterministic, so they stay true until the machine starts over).
#[derive(Clone, Debug)]
pub(crate) struct ColumnCache {
    key: (u64, usize),
    from: u64,
    to: u64,
    columns: Vec<TimelineColumn>,
}

/// Short names of the events a timeline marks.
/// The letter the timeline draws for a column's mark (see [`TimelineColumn::mark`]).
pub fn mark_letter(mark: &str) -> &'static str {
    match mark {
        "diverge" => "D",
        "reconverge" => "R",
        "break" => "B",
        "continue" => "C",
        "iterate" => "I",
        "skip" => "S",
        "barrier" => "W",
        "halt" => "H",
        "else" => "E",
        _ => "•",
    }
}

/// The marks' letters in words, for legends.
pub const MARK_KEY: &str =
    "D R B C I S W H E: diverge, reconverge, break, continue, iterate, skip, barrier, halt, else";

fn mark_of(kind: EventKind) -> Option<&'static str> {
    Some(match kind {
        EventKind::Diverge { .. } => "diverge",
        EventKind::Pop(_) => "reconverge",
        EventKind::Break => "break",
        EventKind::Continue => "continue",
        EventKind::Iterate => "iterate",
        EventKind::Skip { .. } => "skip",
        EventKind::BarrierWait | EventKind::BarrierRelease => "barrier",
        EventKind::Halt | EventKind::WaveDone => "halt",
        EventKind::Else => "else",
        EventKind::Push(_) | EventKind::Call | EventKind::Return => return None,
    })
}

fn cells(wave: &Wave) -> Vec<LaneCell> {
    (0..wave.width())
        .map(|lane| LaneCell::of(wave.lane_state(lane)))
        .collect()
}

/// The timeline's own state: how far it is zoomed, and the instruction columns already built.
#[derive(Debug, Default)]
pub(crate) struct Timeline {
    /// Steps the timeline shows at once (0: the whole run).
    zoom: u64,
    /// Timeline columns already built.
    cache: Option<ColumnCache>,
}

impl Timeline {
    /// Steps the timeline window spans now over `run` (the whole run when zoomed all the way
    /// out).
    pub(crate) fn window(&self, run: &Run) -> u64 {
        match self.zoom {
            0 => run.known_end().max(1),
            steps => steps.clamp(MIN_WINDOW, run.known_end().max(MIN_WINDOW)),
        }
    }

    /// Zooms the timeline: `factor` > 1 shows fewer steps, < 1 more; 0 fits the whole run.
    pub(crate) fn zoom_by(&mut self, run: &Run, factor: f64) {
        if factor <= 0.0 {
            self.zoom = 0;
            return;
        }
        let window = (self.window(run) as f64 / factor).round() as u64;
        self.zoom = if window >= run.known_end() {
            0
        } else {
            window.max(MIN_WINDOW)
        };
    }

    /// The timeline zoom (steps per window; 0 = the whole run), as links carry it.
    pub(crate) fn zoom(&self) -> u64 {
        self.zoom
    }

    pub(crate) fn set_zoom(&mut self, zoom: u64) {
        self.zoom = zoom;
    }

    /// The timeline around the current step. Replays the window when it is fine enough to show
    /// single instructions; leaves the machine where it stands.
    pub(crate) fn view(
        &mut self,
        build: &Build,
        run: &mut Run,
        view: &View,
    ) -> Option<TimelineView> {
        let now = run.step_count();
        let known_end = run.known_end();
        let window = self.window(run);
        let first = if window >= known_end {
            0
        } else {
            now.saturating_sub(window / 2).min(known_end - window)
        };
        let last = (first + window).min(known_end);
        let finished = run.end_known();
        let wave = view.selection().wave as usize;
        let width = run.wave_width();
        let fine = last - first <= FINE_STEPS;
        let columns = if fine {
            self.instruction_columns(build, run, wave, first, last)?
        } else if last - first <= REPLAYED_STEPS {
            replayed_stretches(run, first, last)?
        } else {
            stretch_columns(run, first, last)
        };
        // The column of the instruction that ran last (none before the first one ran).
        let current = columns.iter().rposition(|c| c.first < now);
        Some(TimelineView {
            first,
            last,
            known_end,
            finished,
            now,
            width,
            columns,
            current,
            fine,
        })
    }

    /// One column per instruction wave `wave` ran in steps `first..last`: from the columns
    /// already built when they cover the start of the window (replaying only what follows
    /// them, as when stepping on), otherwise by replaying the whole window.
    fn instruction_columns(
        &mut self,
        build: &Build,
        run: &mut Run,
        wave: usize,
        first: u64,
        last: u64,
    ) -> Option<Vec<TimelineColumn>> {
        let key = (run.machine_start(), wave);
        let reusable = self
            .cache
            .as_ref()
            .is_some_and(|c| c.key == key && c.from <= first && first <= c.to);
        if !reusable {
            let columns = replay_columns(build, run, wave, first, last)?;
            self.cache = Some(ColumnCache {
                key,
                from: first,
                to: last,
                columns,
            });
        }
        let cache = self.cache.take()?;
        let mut cache = cache;
        if last > cache.to {
            let more = replay_columns(build, run, wave, cache.to, last)?;
            cache.columns.extend(more);
            cache.to = last;
        }
        // Keep a few windows' worth behind the one shown.
        if first.saturating_sub(cache.from) > 4 * FINE_STEPS {
            cache.columns.retain(|c| c.first >= first);
            cache.from = first;
        }
        let columns = cache
            .columns
            .iter()
            .filter(|c| c.first >= first && c.first < last)
            .cloned()
            .collect();
        self.cache = Some(cache);
        Some(columns)
    }
}

/// Replays steps `first..last` one instruction at a time, building a column for each one
/// wave `wave` ran; leaves the machine where it stood.
pub(crate) fn replay_columns(
    build: &Build,
    run: &mut Run,
    wave: usize,
    first: u64,
    last: u64,
) -> Option<Vec<TimelineColumn>> {
    let now = run.step_count();
    let kernel_lines = build.kernel()?.lines.clone();
    let (machine, history) = run.machine_and_history()?;
    history.go_to(machine, first, u64::MAX);
    let mut columns = Vec::new();
    let mut events = Vec::new();
    while machine.step_count() < last {
        events.clear();
        if machine.advance_to_ready_wave(&mut events).is_err() {
            break;
        }
        let began = machine.step_count();
        let workgroup = machine.workgroup();
        let picked = workgroup.pick();
        let column = (picked == Some(wave))
            .then(|| workgroup.waves().get(wave))
            .flatten()
            .map(|w| {
                let lanes = cells(w);
                let present = lanes.iter().filter(|c| **c != LaneCell::Absent).count();
                let active = lanes.iter().filter(|c| **c == LaneCell::Active).count();
                TimelineColumn {
                    first: began,
                    step: began + 1,
                    line: kernel_lines.get(w.pc() as usize).copied().unwrap_or(0),
                    lanes,
                    efficiency: active as f32 / present.max(1) as f32,
                    mark: None,
                }
            });
        let stop = machine.run(1, &[], &mut events);
        if let Some(mut column) = column {
            column.mark = events
                .iter()
                .filter(|e| e.wave as usize == wave)
                .find_map(|e| mark_of(e.kind));
            columns.push(column);
        }
        if stop != Stop::SliceUsed {
            break;
        }
    }
    history.go_to(machine, now, u64::MAX);
    Some(columns)
}

/// Up to [`REPLAYED_COLUMNS`] equal stretches of `first..last`, each with its SIMD
/// efficiency, measured by replaying the window at full speed; leaves the machine where it
/// stood.
fn replayed_stretches(run: &mut Run, first: u64, last: u64) -> Option<Vec<TimelineColumn>> {
    let now = run.step_count();
    let (machine, history) = run.machine_and_history()?;
    history.go_to(machine, first, u64::MAX);
    let length = (last - first).div_ceil(REPLAYED_COLUMNS).max(1);
    let mut columns = Vec::new();
    while machine.step_count() < last {
        let from = machine.step_count();
        let before = (
            machine.stats().active_lane_instructions,
            machine.stats().lane_slots,
        );
        let stop = machine.run(
            length.min(last - from),
            &[],
            &mut wave_engine::machine::NoEvents,
        );
        let to = machine.step_count();
        if to == from {
            break;
        }
        let slots = machine.stats().lane_slots - before.1;
        columns.push(TimelineColumn {
            first: from,
            step: to,
            line: 0,
            lanes: Vec::new(),
            efficiency: if slots == 0 {
                1.0
            } else {
                (machine.stats().active_lane_instructions - before.0) as f32 / slots as f32
            },
            mark: None,
        });
        if stop != Stop::SliceUsed {
            break;
        }
    }
    history.go_to(machine, now, u64::MAX);
    Some(columns)
}

/// One column per stretch between samples in `first..last`, with its SIMD efficiency.
fn stretch_columns(run: &Run, first: u64, last: u64) -> Vec<TimelineColumn> {
    let Some(history) = run.history() else {
        return Vec::new();
    };
    let mut points: Vec<(u64, u64, u64)> = history
        .samples()
        .iter()
        .map(|s| (s.step, s.active_lane_instructions, s.lane_slots))
        .collect();
    if let Some(machine) = run.machine() {
        let stats = machine.stats();
        let now = (
            machine.step_count(),
            stats.active_lane_instructions,
            stats.lane_slots,
        );
        if points.last().is_none_or(|p| p.0 < now.0) {
            points.push(now);
        }
    }
    points
        .windows(2)
        .filter(|pair| pair[1].0 > first && pair[0].0 < last)
        .map(|pair| {
            let (from, to) = (pair[0], pair[1]);
            let slots = to.2.saturating_sub(from.2);
            TimelineColumn {
                first: from.0,
                step: to.0,
                line: 0,
                lanes: Vec::new(),
                efficiency: if slots == 0 {
                    1.0
                } else {
                    to.1.saturating_sub(from.1) as f32 / slots as f32
                },
                mark: None,
            }
        })
        .collect()
}
