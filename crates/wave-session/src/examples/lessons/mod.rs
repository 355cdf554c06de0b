//! The lessons: short kernels of one or two waves of eight lanes, each showing one behaviour,
//! with a short explanation and questions for the learner. Their text lives in lesson packs
//! (`assets/lessons/*.md`, one pack per topic, read at build time), so the built-in lessons are
//! written in the very format a teacher writes; what a pack cannot say, the device memory each
//! lesson must end with, is kept here by lesson id.

use std::sync::OnceLock;

use super::{Example, CONTROL_FLOW, PREDICATION, RECONVERGENCE, WAVE_OPERATIONS, WORKGROUPS};
use crate::pack::{parse_pack, Pack};

/// The built-in packs, in the order of the lesson path, with the topic each one is listed under.
const PACKS: [(&str, &str); 5] = [
    (
        CONTROL_FLOW,
        include_str!("../../../../../assets/lessons/control-flow.md"),
    ),
    (
        PREDICATION,
        include_str!("../../../../../assets/lessons/predication.md"),
    ),
    (
        WAVE_OPERATIONS,
        include_str!("../../../../../assets/lessons/wave-operations.md"),
    ),
    (
        RECONVERGENCE,
        include_str!("../../../../../assets/lessons/reconvergence.md"),
    ),
    (
        WORKGROUPS,
        include_str!("../../../../../assets/lessons/workgroups.md"),
    ),
];

/// The built-in packs as read, once: the lessons borrow their text from here.
pub fn builtin_packs() -> &'static [Pack] {
    static PARSED: OnceLock<Vec<Pack>> = OnceLock::new();
    PARSED.get_or_init(|| {
        // The packs ship with the page and a native test reads every one, so a pack that does
        // not read is a build mistake caught before release; it would show no lessons, not fail.
        PACKS
            .iter()
            .filter_map(|(_, text)| parse_pack(text).ok())
            .collect()
    })
}

/// The prose of the built-in lesson `id` as inert HTML (`None` for an id that is not one).
pub fn lesson_prose_html(id: &str) -> Option<&'static str> {
    builtin_packs()
        .iter()
        .flat_map(|p| &p.lessons)
        .find(|l| l.id == id)
        .map(|l| l.prose_html.as_str())
}

/// The explanations as plain sentences (the pack's lines joined), borrowed for the life of the page.
fn explanations() -> &'static [Vec<String>] {
    static JOINED: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    JOINED.get_or_init(|| {
        builtin_packs()
            .iter()
            .map(|pack| {
                pack.lessons
                    .iter()
                    .map(|l| {
                        l.prose_markdown
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .collect()
            })
            .collect()
    })
}

/// Every lesson, in the order of the lesson path.
pub(super) fn lessons() -> Vec<Example> {
    let mut all = Vec::new();
    for ((pack, texts), (topic, _)) in builtin_packs().iter().zip(explanations()).zip(PACKS) {
        for (lesson, explanation) in pack.lessons.iter().zip(texts) {
            all.push(Example {
                id: lesson.id.as_str(),
                topic,
                title: lesson.title.as_str(),
                explanation: explanation.as_str(),
                source: lesson.source.clone(),
                form: lesson.form.clone(),
                check: None,
                expected: expected(&lesson.id),
            });
        }
    }
    all
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
