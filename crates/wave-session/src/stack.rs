//! The divergence-stack view: the selected wave's frames, innermost first.

use wave_engine::machine::{Frame, FrameKind};

use crate::shown::Shown;
use crate::text::lanes_text;

/// One mask of a frame as a row of lanes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaskRow {
    /// "entry", "then", "else", "break" or "continue".
    pub name: &'static str,
    /// One bool per lane of the wave.
    pub lanes: Vec<bool>,
    /// The lanes as text: "0-2, 5", or "none".
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameView {
    /// "if", "else" (an if frame running its else side) or "loop".
    pub kind: &'static str,
    /// Source line of the frame's `if` / `loop`.
    pub line: u32,
    /// Source line of its `endif` / `endloop`, where the lanes reconverge.
    pub reconverge_line: u32,
    pub masks: Vec<MaskRow>,
    /// Completed iterations, for loops.
    pub iterations: Option<u32>,
    /// The whole frame as one sentence for a list item; begins with `kind`.
    pub listitem: String,
}

fn row(name: &'static str, mask: u64, width: u32) -> MaskRow {
    MaskRow {
        name,
        lanes: (0..width).map(|l| mask >> l & 1 == 1).collect(),
        text: lanes_text(mask, width),
    }
}

impl Shown<'_> {
    /// The selected wave's divergence stack, top (innermost) frame first.
    pub(crate) fn stack(&self) -> Vec<FrameView> {
        let Some(wave) = self.selected_wave() else {
            return Vec::new();
        };
        wave.stack()
            .iter()
            .rev()
            .map(|frame| self.frame_view(frame, wave.width()))
            .collect()
    }

    fn frame_view(&self, frame: &Frame, width: u32) -> FrameView {
        let line = self.line_of(frame.origin).unwrap_or(0);
        let reconverge_line = self.line_of(frame.end_pc).unwrap_or(0);
        let (kind, masks, iterations) = match frame.kind {
            FrameKind::If => {
                let masks = vec![
                    row("entry", frame.entry, width),
                    row("then", frame.then_mask, width),
                    row("else", frame.else_mask, width),
                ];
                (if frame.in_else { "else" } else { "if" }, masks, None)
            }
            FrameKind::Loop => {
                let masks = vec![
                    row("entry", frame.entry, width),
                    row("break", frame.break_mask, width),
                    row("continue", frame.continue_mask, width),
                ];
                ("loop", masks, Some(frame.iterations))
            }
        };
        let place = match (frame.kind, frame.in_else) {
            (FrameKind::If, true) => format!("side of the if at line {line}"),
            (FrameKind::If, false) => format!("at line {line}"),
            (FrameKind::Loop, _) => format!("at line {line}, iteration {}", frame.iterations + 1),
        };
        let mask_text = masks
            .iter()
            .map(|m| format!("{} {}", m.name, m.text))
            .collect::<Vec<_>>()
            .join("; ");
        let listitem =
            format!("{kind} {place}, reconverges at line {reconverge_line}: {mask_text}");
        FrameView {
            kind,
            line,
            reconverge_line,
            masks,
            iterations,
            listitem,
        }
    }
}
