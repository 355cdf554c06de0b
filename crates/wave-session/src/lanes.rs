//! The lanes view: one cell per lane of the selected wave, active or not, and why not.

use wave_engine::machine::{FrameKind, LaneState, Wave};

use crate::shown::Shown;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneView {
    pub lane: u32,
    pub active: bool,
    /// Why the lane is not executing ("else side of the if at line 5", "broke out of the loop
    /// at line 4", "continued …", "halted", "outside the workgroup", "finished").
    pub reason: Option<String>,
    /// "Lane N: active" or "Lane N: inactive", then ": reason" when there is one.
    pub aria_label: String,
    /// The last command turned the lane on or off.
    pub changed: bool,
}

impl Shown<'_> {
    /// The lanes of the selected wave (empty when nothing can run).
    pub(crate) fn lanes(&self) -> Vec<LaneView> {
        let Some(wave) = self.selected_wave() else {
            return Vec::new();
        };
        let same_wave = self.view.before_is_selected();
        (0..wave.width())
            .map(|lane| {
                let state = wave.lane_state(lane);
                let active = state == LaneState::Active;
                let reason = self.lane_reason(wave, state);
                let mut aria_label = format!(
                    "Lane {lane}: {}",
                    if active { "active" } else { "inactive" }
                );
                if let Some(reason) = &reason {
                    aria_label.push_str(": ");
                    aria_label.push_str(reason);
                }
                let was_active = self.view.before().active >> lane & 1 == 1;
                LaneView {
                    lane,
                    active,
                    reason,
                    aria_label,
                    changed: same_wave && was_active != active,
                }
            })
            .collect()
    }

    fn lane_reason(&self, wave: &Wave, state: LaneState) -> Option<String> {
        let line = |origin: u32| {
            self.line_of(origin)
                .map_or_else(String::new, |l| format!(" at line {l}"))
        };
        let has_else = |origin: u32| {
            wave.stack()
                .iter()
                .find(|f| f.kind == FrameKind::If && f.origin == origin)
                .is_some_and(|f| f.else_pc != f.end_pc)
        };
        Some(match state {
            LaneState::Active => return None,
            LaneState::OutsideWorkgroup => "outside the workgroup".to_string(),
            LaneState::Halted => "halted".to_string(),
            LaneState::Finished => "finished".to_string(),
            LaneState::WaitingForElse { origin } if has_else(origin) => {
                format!("else side of the if{}", line(origin))
            }
            LaneState::WaitingForElse { origin } => {
                format!("not taken: the if{} has no else", line(origin))
            }
            LaneState::WaitingAtEndif { origin } => {
                format!(
                    "then side done: waits for the else side of the if{}",
                    line(origin)
                )
            }
            LaneState::BrokeOut { origin } => format!("broke out of the loop{}", line(origin)),
            LaneState::Continued { origin } => {
                format!(
                    "continued: waits for the next iteration of the loop{}",
                    line(origin)
                )
            }
            LaneState::Inactive => "inactive".to_string(),
        })
    }
}
