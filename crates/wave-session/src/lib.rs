//! The playground's session layer: everything the page shows and every command it offers, as plain
//! Rust that runs natively in tests. The Leptos app reads the view models here and calls the
//! commands; all ISA behaviour comes from `wave-engine`.
//!
//! Architecture invariant: this crate knows nothing of browsers. It depends on no `leptos`,
//! `web-sys`, `js-sys` or `wasm-bindgen` (the test command checks its dependency tree).

// Nothing here needs `unsafe`; the engine below keeps it behind validated kernels.
#![forbid(unsafe_code)]

mod build;
mod caption;
mod check;
pub mod comparison;
mod data_movement;
mod default_kernel;
mod embed;
mod events;
pub mod examples;
mod export_svg;
mod export_timeline;
mod export_trace;
mod form;
mod lanes;
pub mod markup;
mod memory_view;
mod open_file;
pub mod pacer;
pub mod pack;
pub mod preview;
mod progress;
mod quiz;
pub mod recompile;
mod regions;
mod registers;
mod run;
mod session;
mod share;
mod shown;
mod shown_wave_run;
mod source_view;
mod stack;
mod stats_view;
mod status;
mod table_window;
mod text;
mod timeline;
mod view;
mod warp;

#[cfg(test)]
mod tests;

pub use caption::Caption;
pub use check::Check;
pub use comparison::ComparisonView;
pub use data_movement::{DataMovement, LaneMove, MoveSource};
pub use default_kernel::DEFAULT_KERNEL;
pub use embed::{embed_code, embed_hash, split_page_hash, PageOptions};
pub use events::{EventView, DEPARTURE_LABEL};
pub use export_timeline::MAX_PICTURE_STEPS;
pub use export_trace::{TraceExport, MAX_TRACE_STEPS};
pub use form::{ConfigForm, Field, FormErrors, ValidLaunch};
pub use lanes::LaneView;
pub use memory_view::{parse_address, MemoryFormat, MemoryRow, MemorySpaceChoice};
pub use open_file::{open_file, OpenedFile, MAX_OPEN_BYTES};
pub use progress::{pack_progress_key, Entry as ProgressEntry, Progress};
pub use quiz::{parse_value, value_matches, Answer, OpenQuestion, Reveal, Score};
pub use regions::{ElemType, RegionField, RegionForm, RegionKind};
pub use registers::{LaneDetail, NumberFormat, TableCell, TableRow, MAX_CELL_CHARS};
pub use run::{RunProgress, RunState};
pub use session::{comparison, Opened, Session};
pub use share::{
    AutosaveWork, LinkError, AUTOSAVE_VERSION, LINK_VERSION, MAX_DECODED_BYTES, MAX_LINK_CHARS,
};
pub use shown_wave_run::ShownWaveRun;
pub use source_view::{
    cache_hint_names, highlight_lines, mnemonic_table, special_register_names, utf16_offsets,
    DiagnosticView, HighlightSpan,
};
pub use stack::{FrameView, MaskRow};
pub use stats_view::{LineHeat, StatsView};
pub use status::DEPARTS_NOTE;
pub use table_window::{Axis, Rect, TableWindow, OVERSCAN, UNMEASURED_ITEMS};
pub use text::lanes_phrase;
pub use timeline::{
    mark_letter, LaneCell, TimelineColumn, TimelineView, FINE_STEPS, MARK_KEY, MIN_WINDOW,
    REPLAYED_STEPS,
};
pub use view::Selection;
pub use warp::{StackChange, WarpAnswer, WarpQuestion, WarpScore, WarpVerdict};
pub use wave_engine::syntax::questions::QuestionKind;
