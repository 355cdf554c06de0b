//! The examples gallery: short lessons on divergence and one full-size kernel with its data and a
//! result check; and, in a list of their own, the lesson pairs that open in compare mode. Every
//! kernel here is the playground's own.

mod gemm;
mod lessons;

pub use lessons::{builtin_packs, lesson_prose_html};
mod pairs;

use std::sync::OnceLock;

use crate::check::Check;
use crate::form::ConfigForm;

pub use gemm::{gemm_512_example, gemm_512_tiled_example, gemm_example, GEMM_512_N, GEMM_N};
pub use pairs::{compare_pair, compare_pairs, pair_run, ComparePair, COMPARE_TOPIC};

#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Stable identifier (for menus and URLs).
    pub id: &'static str,
    /// The group it is listed under in the Examples menu (see [`TOPICS`]).
    pub topic: &'static str,
    pub title: &'static str,
    /// Two to four sentences: what to watch for.
    pub explanation: &'static str,
    pub source: String,
    pub form: ConfigForm,
    /// Checked when the grid finishes.
    pub check: Option<Check>,
    /// For a lesson: the device memory it ends with, as u32 words from address 0 (a native
    /// test checks every lesson against it).
    pub expected: Vec<u32>,
}

/// The Examples menu's groups, in order: the lessons' topics, then the full-size kernels.
pub const TOPICS: [&str; 6] = [
    CONTROL_FLOW,
    PREDICATION,
    WAVE_OPERATIONS,
    RECONVERGENCE,
    WORKGROUPS,
    FULL_SIZE,
];
pub const CONTROL_FLOW: &str = "Control flow";
pub const PREDICATION: &str = "Predication vs branching";
pub const WAVE_OPERATIONS: &str = "Wave operations";
pub const RECONVERGENCE: &str = "Reconvergence";
pub const WORKGROUPS: &str = "Workgroups";
/// Not lessons: kernels at full size.
pub const FULL_SIZE: &str = "Full-size kernels";

impl Example {
    /// Lessons make up the lesson path; full-size kernels do not.
    pub fn is_lesson(&self) -> bool {
        self.topic != FULL_SIZE
    }
}

/// The lesson after `id` on the lesson path (`None` after the last one, or for an id that is
/// not a lesson).
pub fn next_lesson(id: &str) -> Option<Example> {
    let mut lessons = examples().iter().filter(|e| e.is_lesson());
    lessons.find(|e| e.id == id)?;
    lessons.next().cloned()
}

/// Every example, lessons first, grouped in the order of [`TOPICS`]. Built once: the page lists
/// them often (the Examples menu, the lesson path, the next lesson), and the GEMM kernels'
/// text and the lessons' packs are generated and read to build them.
pub fn examples() -> &'static [Example] {
    static ALL: OnceLock<Vec<Example>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = lessons::lessons();
        all.push(gemm_example());
        all.push(gemm_512_example());
        all.push(gemm_512_tiled_example());
        all.sort_by_key(|e| TOPICS.iter().position(|t| *t == e.topic));
        all
    })
}

/// The example with `id`.
pub fn example(id: &str) -> Option<Example> {
    examples().iter().find(|e| e.id == id).cloned()
}

/// A form for one workgroup of `threads` threads in waves of `width`, with `memory` bytes.
pub fn small_form(threads: u32, width: u32, memory: u32) -> ConfigForm {
    ConfigForm {
        workgroup: format!("{threads},1,1"),
        wave_width: width.to_string(),
        device_memory: memory.to_string(),
        ..ConfigForm::default()
    }
}
