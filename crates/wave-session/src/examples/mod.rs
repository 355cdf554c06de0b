//! The examples gallery: short lessons on divergence and one full-size kernel with its data and a
//! result check. Every kernel here is the playground's own.

mod gemm;
mod lessons;

use crate::check::Check;
use crate::form::ConfigForm;

pub use gemm::{gemm_example, GEMM_N};

#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Stable identifier (for menus and URLs).
    pub id: &'static str,
    pub title: &'static str,
    /// Two to four sentences: what to watch for.
    pub explanation: &'static str,
    pub source: String,
    pub form: ConfigForm,
    /// Checked when the grid finishes.
    pub check: Option<Check>,
}

/// Every example, lessons first.
pub fn examples() -> Vec<Example> {
    let mut all = lessons::lessons();
    all.push(gemm_example());
    all
}

/// The example with `id`.
pub fn example(id: &str) -> Option<Example> {
    examples().into_iter().find(|e| e.id == id)
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
