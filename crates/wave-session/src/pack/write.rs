//! Writing lesson packs: an open pack, or the kernel on show, as Markdown that reads back to the
//! same lessons.

use super::{Pack, PackLesson};
use crate::form::ConfigForm;

/// `pack` as the Markdown of a lesson pack.
pub fn pack_markdown(pack: &Pack) -> String {
    let mut out = format!("# {}\n", escape_heading(&pack.title));
    if !pack.intro_markdown.is_empty() {
        out.push('\n');
        out.push_str(&pack.intro_markdown);
        out.push('\n');
    }
    for lesson in &pack.lessons {
        write_lesson(&mut out, lesson);
    }
    out
}

/// One kernel as a pack of one lesson: `title` is the pack's and the lesson's, `prose` the
/// lesson's Markdown (may be empty).
pub fn kernel_pack(title: &str, id: &str, prose: &str, source: &str, form: &ConfigForm) -> String {
    let title = if title.trim().is_empty() {
        "Untitled kernel"
    } else {
        title.trim()
    };
    let id = if super::slug(id) == id && !id.is_empty() {
        id.to_string()
    } else {
        super::slug(title)
    };
    let lesson = PackLesson {
        id: if id.is_empty() {
            "kernel".to_string()
        } else {
            id
        },
        title: title.to_string(),
        prose_html: String::new(),
        prose_markdown: prose.trim().to_string(),
        source: source.to_string(),
        form: form.clone(),
        line: 0,
    };
    let mut out = format!("# {}\n", escape_heading(title));
    write_lesson(&mut out, &lesson);
    out
}

fn write_lesson(out: &mut String, lesson: &PackLesson) {
    out.push_str(&format!(
        "\n## {} {{#{}}}\n",
        escape_heading(&lesson.title),
        lesson.id
    ));
    if !lesson.prose_markdown.is_empty() {
        out.push('\n');
        out.push_str(&lesson.prose_markdown);
        out.push('\n');
    }
    let fence = fence_for(&lesson.source);
    out.push_str(&format!("\n{fence}wave\n{}", lesson.source));
    if !lesson.source.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    let lines = launch_lines(&lesson.form);
    if !lines.is_empty() {
        out.push_str("\n```launch\n");
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str("```\n");
    }
}

/// The launch settings that differ from the Launch tab's defaults, as pack lines.
pub(crate) fn launch_lines(form: &ConfigForm) -> Vec<String> {
    let base = ConfigForm::default();
    let fields = [
        ("kernel", &form.kernel, &base.kernel),
        ("grid", &form.grid, &base.grid),
        ("workgroup size", &form.workgroup, &base.workgroup),
        ("wave width", &form.wave_width, &base.wave_width),
        (
            "initial registers",
            &form.initial_registers,
            &base.initial_registers,
        ),
        ("device memory", &form.device_memory, &base.device_memory),
        ("local memory", &form.local_memory, &base.local_memory),
        (
            "instruction budget",
            &form.max_instructions,
            &base.max_instructions,
        ),
    ];
    let mut lines: Vec<String> = fields
        .into_iter()
        .filter(|(_, value, default)| value.trim() != default.trim())
        .map(|(name, value, _)| format!("{name}: {}", value.replace(['\n', '\r'], " ").trim()))
        .collect();
    if form.reference_behaviour {
        lines.push("reference emulator behaviour: on".to_string());
    }
    lines.extend(
        form.regions
            .iter()
            .map(|region| format!("memory: {}", super::memory_line::write_region(region))),
    );
    lines
}

/// A fence longer than any run of backticks in `text`, so the block holds it whole.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat((longest + 1).max(3))
}

/// Heading text with Markdown's punctuation escaped, so it reads back as the same words.
fn escape_heading(text: &str) -> String {
    let mut out = String::new();
    for c in text.replace(['\n', '\r'], " ").chars() {
        if c.is_ascii_punctuation()
            && !matches!(
                c,
                '-' | '.' | ',' | '/' | '\'' | '?' | ':' | ';' | '(' | ')' | '"'
            )
        {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
