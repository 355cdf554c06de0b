//! A run as one view shows it: the build it was started from, the run, and the view's
//! selection and last command, borrowed together. Every reader of the step on show (the
//! caption, the lanes, the stack, the registers, the events, the status) takes one of these, so
//! it can show any run, not only the session's.

use wave_engine::machine::Wave;
use wave_engine::program::Kernel;

use crate::build::Build;
use crate::run::Run;
use crate::view::View;

/// One run on show.
#[derive(Clone, Copy)]
pub(crate) struct Shown<'a> {
    pub(crate) build: &'a Build,
    pub(crate) run: &'a Run,
    pub(crate) view: &'a View,
    /// The line of the question the selected wave is stopped at, if it is.
    pub(crate) asking: Option<u32>,
}

impl<'a> Shown<'a> {
    pub(crate) fn kernel(&self) -> Option<&'a Kernel> {
        self.build.kernel()
    }

    /// The source line of instruction `pc` of the running kernel.
    pub(crate) fn line_of(&self, pc: u32) -> Option<u32> {
        self.build.line_of(pc)
    }

    pub(crate) fn step_count(&self) -> u64 {
        self.run.step_count()
    }

    /// The selected wave of the current workgroup.
    pub(crate) fn selected_wave(&self) -> Option<&'a Wave> {
        self.view.selected_wave(self.run.machine()?)
    }

    /// The source line of the selected wave's next instruction, while it has one.
    pub(crate) fn current_line(&self) -> Option<u32> {
        let machine = self.run.machine()?;
        if machine.is_finished() {
            return None;
        }
        let wave = self.view.selected_wave(machine)?;
        if wave.is_done() {
            return None;
        }
        self.line_of(wave.pc())
    }
}
