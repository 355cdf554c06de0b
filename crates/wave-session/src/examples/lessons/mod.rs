//! The lessons: short kernels of one or two waves of eight lanes, each showing one behaviour,
//! with a short explanation, questions for the learner, and the device memory it must end with.

mod control_flow;
mod more;
mod wave_ops;

use super::{small_form, Example};

/// A lesson of `threads` threads in waves of eight, with 256 bytes of device memory; `expected`
/// is the device memory it ends with, as u32 words from address 0.
fn lesson(
    topic: &'static str,
    id: &'static str,
    title: &'static str,
    explanation: &'static str,
    source: &str,
    threads: u32,
    expected: Vec<u32>,
) -> Example {
    Example {
        id,
        topic,
        title,
        explanation,
        source: source.to_string(),
        form: small_form(threads, 8, 256),
        check: None,
        expected,
    }
}

/// Every lesson, in the order of the lesson path.
pub(super) fn lessons() -> Vec<Example> {
    [
        control_flow::lessons(),
        more::lessons(),
        wave_ops::lessons(),
    ]
    .concat()
}
