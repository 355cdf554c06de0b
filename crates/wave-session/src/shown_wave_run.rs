//! When the machine views that hold their tallest height may give that room back.
//!
//! The divergence stack and the list of the last step's events grow and shrink from step to
//! step. Each shrink would move the registers below them, and a moved view is repainted and
//! re-rastered whole (about 0.8 ms of main-thread paint per push or pop on a 64-lane wave). So
//! those views keep the tallest height they have had (`components::held_height` in the app), and
//! give it back only when what they show starts over: the machine is reset (which every edit of
//! the source or configuration does, and every session that replaces another), another
//! workgroup or wave is shown, or the wave width changes. [`ShownWaveRun`] names that span.

use crate::run::Run;
use crate::view::View;

/// One machine start, workgroup, wave and width as the views follow it: it changes exactly when
/// the held room should be given back (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShownWaveRun {
    machine_start: u64,
    workgroup: u32,
    wave: u32,
    width: u32,
}

impl ShownWaveRun {
    /// What `view` follows of `run`.
    pub(crate) fn of(run: &Run, view: &View) -> Self {
        let selection = view.selection();
        ShownWaveRun {
            machine_start: run.machine_start(),
            workgroup: selection.workgroup,
            wave: selection.wave,
            width: run.wave_width(),
        }
    }
}
