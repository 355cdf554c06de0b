//! What the page shows of the session: each view asks its reader module for the run on show
//! ([`Session::shown`]) or for the parts it reads.

use wave_engine::syntax::questions::QuestionKind;

use crate::caption::Caption;
use crate::data_movement::DataMovement;
use crate::events::{event_views, EventView};
use crate::export_trace::{trace_json, TraceExport};
use crate::lanes::LaneView;
use crate::memory_view::{MemoryFormat, MemoryRow, MemorySpaceChoice};
use crate::registers::{LaneDetail, NumberFormat, TableRow};
use crate::shown_wave_run::ShownWaveRun;
use crate::source_view::{diagnostic_views, DiagnosticView};
use crate::stack::FrameView;
use crate::stats_view::{LineHeat, StatsView};
use crate::timeline::TimelineView;

use super::Session;

impl Session {
    /// The caption of the step on show.
    pub fn caption(&self) -> Caption {
        self.shown().caption()
    }

    /// Events of the last `step` (runs collect none), with each departure from the spec as an
    /// entry of its own where it happened among them.
    pub fn last_events(&self) -> Vec<EventView> {
        event_views(self.view.events(), &self.build, self.run.wave_width())
    }

    /// The last command did something the spec would not: some step of it departed.
    pub fn departed(&self) -> bool {
        self.view.events().departed()
    }

    /// The lanes of the selected wave (empty when nothing can run).
    pub fn lanes(&self) -> Vec<LaneView> {
        self.shown().lanes()
    }

    /// The selected wave's divergence stack, top (innermost) frame first.
    pub fn stack(&self) -> Vec<FrameView> {
        self.shown().stack()
    }

    /// The source line of the selected wave's next instruction, while it has one.
    pub fn current_line(&self) -> Option<u32> {
        self.shown().current_line()
    }

    /// The source line of instruction `pc` of the running kernel.
    pub fn line_of(&self, pc: u32) -> Option<u32> {
        self.build.line_of(pc)
    }

    /// "ready", "paused at line 7", "running…", "finished after 1234 wave-instructions",
    /// "trapped: <message> at line 9 (lane 2)", "instruction budget exceeded at line 12"; after
    /// a command that did something the spec would not (a machine with the reference
    /// emulator's behaviour), followed by [`DEPARTS_NOTE`], e.g. "paused at line 9 · departs
    /// from the spec (wave-emu behaviour)".
    ///
    /// [`DEPARTS_NOTE`]: crate::DEPARTS_NOTE
    pub fn status_text(&self) -> String {
        self.shown().status_text()
    }

    /// The selected wave of the current workgroup.
    pub fn selected_wave(&self) -> Option<&wave_engine::machine::Wave> {
        self.shown().selected_wave()
    }

    /// The selected lane's registers and predicates.
    pub fn lane_detail(&self, format: NumberFormat) -> Option<LaneDetail> {
        self.shown().lane_detail(format)
    }

    /// Rows of the whole register table (used registers, then p0–p3); 0 without a wave.
    pub fn register_table_rows(&self) -> usize {
        self.shown().register_table_rows()
    }

    /// How many characters the table's value columns need in `format`: the longest value of
    /// the selected wave's shown registers (at least 1, at most [`MAX_CELL_CHARS`]). One width
    /// for every column, so scrolling never moves them.
    ///
    /// [`MAX_CELL_CHARS`]: crate::MAX_CELL_CHARS
    pub fn register_cell_chars(&self, format: NumberFormat) -> usize {
        self.shown().register_cell_chars(format)
    }

    /// The rows `rows` of the register table (registers, then p0–p3) with the cells of the lanes
    /// `lanes` only: what a virtualised table renders. Ranges past the end are cut.
    pub fn register_window(
        &self,
        format: NumberFormat,
        rows: std::ops::Range<usize>,
        lanes: std::ops::Range<u32>,
    ) -> Vec<TableRow> {
        self.shown().register_window(format, rows, lanes)
    }

    /// The data movement of the step on show, when it ran one cross-lane instruction of the
    /// selected wave.
    pub fn data_movement(&self) -> Option<DataMovement> {
        self.shown().data_movement()
    }

    /// Statistics since the last reset; `run_time_ms` is measured by the caller.
    pub fn stats(&self, run_time_ms: Option<f64>) -> StatsView {
        self.shown().stats(run_time_ms)
    }

    /// Per source line that executed: its SIMD efficiency. The lanes a wave has are taken as the
    /// wave width, capped by the workgroup size (the last wave of a workgroup may be partial, which
    /// this does not see).
    pub fn line_heat(&self) -> Vec<LineHeat> {
        self.shown().line_heat()
    }

    /// Size in bytes of a memory (0 when nothing can run).
    pub fn memory_size(&self, space: MemorySpaceChoice) -> usize {
        self.shown().memory_size(space)
    }

    /// `rows` rows of `per_row` cells each from `start` (rounded down to the cell size).
    pub fn memory_rows(
        &self,
        space: MemorySpaceChoice,
        start: u32,
        rows: usize,
        per_row: usize,
        format: MemoryFormat,
    ) -> Vec<MemoryRow> {
        self.shown()
            .memory_rows(space, start, rows, per_row, format)
    }

    /// The moment on show as a standalone SVG document.
    pub fn moment_svg(&self, dark: bool) -> String {
        self.shown().moment_svg(dark)
    }

    /// Every diagnostic of the current source, in source order.
    pub fn diagnostics(&self) -> Vec<DiagnosticView> {
        diagnostic_views(&self.build)
    }

    /// The teaching questions the source asks, each with its 1-based line, in source order.
    pub fn questions(&self) -> Vec<(u32, QuestionKind)> {
        self.build.question_lines()
    }

    /// The current source as the `.wbin` bytes `wave-asm` writes for it. `Err` lists what stops
    /// it (compile errors, or statements the binary format has no encoding for), with lines.
    pub fn wbin(&self) -> Result<Vec<u8>, String> {
        crate::open_file::wbin_of(self.build.source())
    }

    /// Which kernel progress is kept for: the gallery example the work came from, else the
    /// running kernel's name.
    pub fn progress_key(&self) -> String {
        crate::progress::progress_key(&self.build)
    }

    /// The machine start, workgroup, wave and width the views follow (see [`ShownWaveRun`]).
    pub fn shown_wave_run(&self) -> ShownWaveRun {
        ShownWaveRun::of(&self.run, &self.view)
    }

    /// The furthest step known so far.
    pub fn known_end(&self) -> u64 {
        self.run.known_end()
    }

    /// Steps the timeline window spans now (the whole run when zoomed all the way out).
    pub fn timeline_window(&self) -> u64 {
        self.timeline.window(&self.run)
    }

    /// Zooms the timeline: `factor` > 1 shows fewer steps, < 1 more; 0 fits the whole run.
    pub fn zoom_timeline(&mut self, factor: f64) {
        self.timeline.zoom_by(&self.run, factor);
    }

    /// The timeline zoom (steps per window; 0 = the whole run), as links carry it.
    pub fn timeline_zoom(&self) -> u64 {
        self.timeline.zoom()
    }

    /// The timeline around the current step. Replays the window when it is fine enough to show
    /// single instructions; leaves the machine where it stands.
    pub fn timeline(&mut self) -> Option<TimelineView> {
        self.timeline.view(&self.build, &mut self.run, &self.view)
    }

    /// The timeline of steps `first..last` (the instructions the selected wave ran after step
    /// `first`, up to step `last`) as a standalone SVG document. Leaves the machine where it
    /// stands. `Err` says what is wrong with the range.
    pub fn timeline_svg(&mut self, first: u64, last: u64, dark: bool) -> Result<String, String> {
        crate::export_timeline::timeline_svg(
            &self.build,
            &mut self.run,
            &self.view,
            first,
            last,
            dark,
        )
    }

    /// The events of steps up to now (the last [`MAX_TRACE_STEPS`] of them) as JSON. Leaves the
    /// machine where it stands. `Err` says why there is nothing to trace.
    ///
    /// [`MAX_TRACE_STEPS`]: crate::MAX_TRACE_STEPS
    pub fn trace_json(&mut self) -> Result<TraceExport, String> {
        trace_json(&self.build, &mut self.run)
    }
}
