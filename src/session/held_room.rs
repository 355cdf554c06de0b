//! When the machine views that hold their tallest height may give that room back.
//!
//! The divergence stack and the list of the last step's events grow and shrink from step to
//! step. Each shrink moved the registers below them, and a moved view is repainted and
//! re-rastered whole: on a 64-lane wave that was about a millisecond of each step's frame. So
//! those views keep the tallest height they have had (`components::held_height`), and give it
//! back only when what they show starts over: the machine is reset (which every edit of the
//! source or configuration does), another workgroup or wave is shown, or the wave width changes.

use super::Session;

/// Changes exactly when the held room should be given back (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomEpoch {
    resets: u64,
    workgroup: u32,
    wave: u32,
    width: u32,
}

impl Session {
    pub fn room_epoch(&self) -> RoomEpoch {
        RoomEpoch {
            resets: self.resets,
            workgroup: self.selection.workgroup,
            wave: self.selection.wave,
            width: self.wave_width(),
        }
    }
}
