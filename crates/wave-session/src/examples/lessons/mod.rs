//! The lessons: short kernels of one or two waves of eight lanes, each showing one behaviour,
//! with a short explanation and questions for the learner. Their text lives in lesson packs
//! (`assets/lessons/*.md`, one pack per topic), so the built-in lessons are written in the very
//! format a teacher writes; what a pack cannot say, the device memory each lesson must end with,
//! is kept here by lesson id.
//!
//! The page does not read the packs' Markdown: `generated.rs` holds them as `parse_pack` reads
//! them, written by a native test (`sourcegen.rs`) that fails and writes the file again when a
//! pack has changed. So the Markdown reader is not in the page's first wasm module, which every
//! visit downloads, but in the module that opens a teacher's pack.

#[rustfmt::skip]
mod generated;

use std::sync::OnceLock;

use super::{Example, CONTROL_FLOW, PREDICATION, RECONVERGENCE, WAVE_OPERATIONS, WORKGROUPS};
use crate::form::ConfigForm;
use crate::pack::{launch_form, Pack, PackLesson};

/// The built-in packs' files in `assets/lessons/`, in the order of the lesson path, with the topic
/// each one is listed under. `generated::PACKS` holds them read, in this order.
const PACKS: [(&str, &str); 5] = [
    (CONTROL_FLOW, "control-flow.md"),
    (PREDICATION, "predication.md"),
    (WAVE_OPERATIONS, "wave-operations.md"),
    (RECONVERGENCE, "reconvergence.md"),
    (WORKGROUPS, "workgroups.md"),
];

/// A built-in pack as read, in static text: the fields of [`Pack`].
struct BuiltinPack {
    title: &'static str,
    intro_html: &'static str,
    intro_markdown: &'static str,
    key: &'static str,
    lessons: &'static [BuiltinLesson],
}

/// A lesson of a built-in pack: the fields of [`PackLesson`], with its launch form as the pack's
/// launch lines.
struct BuiltinLesson {
    id: &'static str,
    title: &'static str,
    line: usize,
    prose_html: &'static str,
    prose_markdown: &'static str,
    source: &'static str,
    launch: &'static str,
}

impl BuiltinLesson {
    /// The lesson's launch form. A native test reads every built-in lesson's, so a launch line
    /// that does not read is a build mistake caught before release; it would show the defaults.
    fn form(&self) -> ConfigForm {
        launch_form(self.launch).unwrap_or_default()
    }
}

/// The built-in packs as [`Pack`]s, made once: "Download as lesson pack" writes them out.
pub fn builtin_packs() -> &'static [Pack] {
    static PACKED: OnceLock<Vec<Pack>> = OnceLock::new();
    PACKED.get_or_init(|| {
        generated::PACKS
            .iter()
            .map(|pack| Pack {
                title: pack.title.to_string(),
                intro_html: pack.intro_html.to_string(),
                intro_markdown: pack.intro_markdown.to_string(),
                lessons: pack
                    .lessons
                    .iter()
                    .map(|lesson| PackLesson {
                        id: lesson.id.to_string(),
                        title: lesson.title.to_string(),
                        prose_html: lesson.prose_html.to_string(),
                        prose_markdown: lesson.prose_markdown.to_string(),
                        source: lesson.source.to_string(),
                        form: lesson.form(),
                        line: lesson.line,
                    })
                    .collect(),
                key: pack.key.to_string(),
            })
            .collect()
    })
}

/// The built-in lessons, in the order of the lesson path.
fn builtin_lessons() -> impl Iterator<Item = &'static BuiltinLesson> {
    generated::PACKS.iter().flat_map(|pack| pack.lessons)
}

/// The prose of the built-in lesson `id` as inert HTML (`None` for an id that is not one).
pub fn lesson_prose_html(id: &str) -> Option<&'static str> {
    builtin_lessons().find(|l| l.id == id).map(|l| l.prose_html)
}

/// The explanations as plain sentences (the pack's lines joined), borrowed for the life of the
/// page, in the order of the lesson path.
fn explanations() -> &'static [String] {
    static JOINED: OnceLock<Vec<String>> = OnceLock::new();
    JOINED.get_or_init(|| {
        builtin_lessons()
            .map(|l| {
                l.prose_markdown
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    })
}

/// Every lesson, in the order of the lesson path.
pub(super) fn lessons() -> Vec<Example> {
    let topics = generated::PACKS
        .iter()
        .zip(PACKS)
        .flat_map(|(pack, (topic, _))| pack.lessons.iter().map(move |_| topic));
    builtin_lessons()
        .zip(topics)
        .zip(explanations())
        .map(|((lesson, topic), explanation)| Example {
            id: lesson.id,
            topic,
            title: lesson.title,
            explanation: explanation.as_str(),
            source: lesson.source.to_string(),
            form: lesson.form(),
            check: None,
            expected: expected(lesson.id),
        })
        .collect()
}

/// The device memory the lesson `id` ends with, as u32 words from address 0 (a native test runs
/// every lesson against it).
fn expected(id: &str) -> Vec<u32> {
    let then = |parts: &[Vec<u32>]| parts.concat();
    match id {
        "predicates" => vec![6, 2, 6, 2, 6, 1, 5, 1],
        "uniform-if" => vec![2; 8],
        "if-else" => vec![111, 111, 111, 222, 222, 222, 222, 222],
        "nested-if" => vec![2, 1, 2, 1, 3, 3, 3, 3],
        "loop-exit" => vec![1, 2, 3, 4, 5, 6, 7, 8],
        // Sum of the even i in 1..=lane+2.
        "break-continue" => vec![2, 2, 6, 6, 12, 12, 20, 20],
        "break-in-if" => vec![0, 1, 2, 3, 4, 5, 6, 7],
        "halt-in-branch" => vec![1, 1, 1, 2, 2, 2, 2, 2],
        "calls" => vec![10, 20, 10, 20, 10, 20, 10, 20],
        "three-ways" => (0..8u32).flat_map(|l| [l.max(7 - l); 3]).collect(),
        "butterfly" => then(&[vec![56; 8], vec![4, 5, 6, 7, 0, 0, 0, 0]]),
        "broadcast" => then(&[vec![105; 8], vec![0, 0, 0, 0, 100, 100, 100, 100]]),
        "votes" => then(&[
            vec![7; 8],
            vec![1, 1, 1, 1, 0, 0, 0, 0],
            vec![0, 0, 0, 0, 1, 1, 1, 1],
        ]),
        "prefix-sum" => then(&[vec![0, 1, 2, 3, 4, 5, 6, 7], vec![0, 0, 0, 1, 0, 4, 0, 9]]),
        "shuffles" => then(&[
            vec![0, 0, 0, 10, 20, 30, 40, 50],
            vec![20, 30, 40, 50, 60, 70, 0, 0],
            vec![70, 60, 50, 40, 30, 20, 10, 0],
            vec![10, 0, 30, 0, 50, 0, 70, 0],
        ]),
        // Three words per lane: the whole-wave sum, the odd lanes' sum, the ballot.
        "wave-ops" => (0..8u32)
            .flat_map(|lane| {
                if lane % 2 == 1 {
                    [28, 16, 0b1010_0000]
                } else {
                    [28, 0, 0]
                }
            })
            .collect(),
        "reconverge" => then(&[vec![0, 4, 0, 4, 0, 4, 0, 4], vec![8; 8]]),
        "barrier-local" => (0..16).rev().map(|t| t * 10).collect(),
        "workgroup-sum" => vec![120; 16],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod sourcegen;
