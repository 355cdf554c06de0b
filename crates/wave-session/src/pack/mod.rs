//! Lesson packs: a sequence of lessons written as one Markdown file, by the playground's authors
//! (the built-in lessons are packs) or by a teacher.
//!
//! A pack is a `#` title, optional prose, then one `##` section per lesson: its prose, one fenced
//! `wave` block (the kernel, with its `; ?` question comments) and optional fenced `launch` lines
//! (`wave width: 8`, named as the Launch tab names its fields). `docs/lesson-packs.md` is the
//! format's reference. Reading a pack never fails silently: a malformed one is refused with one
//! message naming its line, and the caller keeps the work on show.

mod address;
mod memory_line;
mod render;
mod write;

#[cfg(test)]
mod tests;

use std::fmt;

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use wave_engine::{LaunchField, LaunchSpec};

use crate::form::ConfigForm;

pub use address::PackAddress;
#[cfg(test)]
pub(crate) use write::launch_lines;
pub use write::{kernel_pack, pack_markdown};

/// Largest pack read: far beyond a course's text, small enough to refuse a wrong file at once.
pub const MAX_PACK_BYTES: usize = 1 << 20;
/// Largest pack a share link carries whole. Past it, "Copy link" carries the work only: a link
/// is compressed, but links of tens of kilobytes already fail in some chat and mail programs.
pub const MAX_INLINE_PACK_BYTES: usize = 16 << 10;
/// Most lessons in one pack.
pub const MAX_PACK_LESSONS: usize = 100;

/// A pack read and checked: every lesson has a kernel and a launch configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Pack {
    pub title: String,
    /// The prose between the title and the first lesson, as inert HTML (may be empty).
    pub intro_html: String,
    /// The same prose as the pack wrote it, for writing the pack out again.
    pub intro_markdown: String,
    pub lessons: Vec<PackLesson>,
    /// Names this pack's progress in storage: its title and a hash of its text, so that an
    /// edited pack starts afresh and two packs with one title do not share ticks.
    pub key: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PackLesson {
    /// From the heading's `{#id}`, else made from its title (`If / else` → `if-else`).
    pub id: String,
    pub title: String,
    /// The lesson's prose as inert HTML.
    pub prose_html: String,
    /// The prose as the pack wrote it (the kernel and launch blocks taken out).
    pub prose_markdown: String,
    pub source: String,
    pub form: ConfigForm,
    /// The line of the lesson's `##` heading.
    pub line: usize,
}

/// Why a pack cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackError {
    /// 1-based; 0 when the fault is the file as a whole (its size).
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for PackError {}

fn error<T>(line: usize, message: impl Into<String>) -> Result<T, PackError> {
    Err(PackError {
        line,
        message: message.into(),
    })
}

/// Reads a pack from the bytes of a file or a download: checks its size and that it is text.
pub fn read_pack(bytes: &[u8]) -> Result<Pack, PackError> {
    read_pack_at(bytes, None)
}

/// [`read_pack`] for a pack fetched from `address`: its relative images are read from beside it,
/// and absolute ones only from its own site.
pub fn read_pack_at(bytes: &[u8], address: Option<&PackAddress>) -> Result<Pack, PackError> {
    if bytes.len() > MAX_PACK_BYTES {
        return error(
            0,
            format!(
                "the pack is {} bytes; a lesson pack holds at most {} MB",
                bytes.len(),
                MAX_PACK_BYTES >> 20
            ),
        );
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_pack_at(text, address),
        Err(e) => {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            error(line, "the pack is not UTF-8 text")
        }
    }
}

/// A lesson being read: where its parts are, until the next heading closes it.
struct Draft<'a> {
    id: String,
    title: String,
    line: usize,
    prose: Vec<Event<'a>>,
    /// Where the lesson's text starts (after its heading), and the blocks to cut out of it.
    body_start: usize,
    cuts: Vec<std::ops::Range<usize>>,
    source: Option<(String, usize)>,
    form: ConfigForm,
    launch_line: Option<usize>,
}

/// What a heading being read will be.
enum Heading {
    Title,
    Lesson(Option<String>),
    /// A heading inside a lesson's prose (`###` and below).
    Prose,
}

/// Reads a pack from its text.
pub fn parse_pack(text: &str) -> Result<Pack, PackError> {
    parse_pack_at(text, None)
}

/// [`parse_pack`] for a pack fetched from `address` (see [`read_pack_at`]).
pub fn parse_pack_at(text: &str, address: Option<&PackAddress>) -> Result<Pack, PackError> {
    if text.len() > MAX_PACK_BYTES {
        return read_pack_at(text.as_bytes(), address);
    }
    let lines = LineIndex::new(text);
    let options = Options::ENABLE_HEADING_ATTRIBUTES | Options::ENABLE_STRIKETHROUGH;
    let mut title: Option<String> = None;
    let mut intro: Vec<Event<'_>> = Vec::new();
    let mut intro_start = 0usize;
    let mut intro_end: Option<usize> = None;
    let mut lessons: Vec<PackLesson> = Vec::new();
    let mut draft: Option<Draft<'_>> = None;
    // The heading whose text is being gathered, with its line.
    let mut heading: Option<(Heading, usize, String, std::ops::Range<usize>)> = None;
    // The fenced block being gathered: its info word, first line and text.
    let mut block: Option<(String, usize, String)> = None;
    let mut depth = 0usize;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        let line = lines.line_of(range.start);
        let top = depth == 0;
        if let Event::Start(_) = &event {
            depth += 1;
        }
        if let Event::End(_) = &event {
            depth = depth.saturating_sub(1);
        }
        if let Some((kind, _, gathered, _)) = heading.as_mut() {
            if let Event::Text(t) | Event::Code(t) = &event {
                gathered.push_str(t);
            }
            let prose = matches!(kind, Heading::Prose);
            let ends = depth == 0 && matches!(event, Event::End(TagEnd::Heading(_)));
            if let Some((kind, at, words, place)) = heading.take_if(|_| ends) {
                let words = words.trim().to_string();
                match kind {
                    Heading::Title if words.is_empty() => {
                        return error(at, "the pack's `#` title is empty")
                    }
                    Heading::Title => {
                        title = Some(words);
                        intro_start = place.end;
                    }
                    Heading::Lesson(id) => {
                        if let Some(done) = draft.take() {
                            lessons.push(finish(done, text, place.start, address)?);
                        }
                        intro_end.get_or_insert(place.start);
                        draft = Some(begin_lesson(&lessons, id, words, at, place.end)?);
                    }
                    Heading::Prose => {}
                }
            }
            if !prose {
                continue;
            }
        }
        if let Some((_, _, gathered)) = block.as_mut() {
            match &event {
                Event::Text(t) => {
                    gathered.push_str(t);
                    continue;
                }
                Event::End(TagEnd::CodeBlock) => {
                    let (info, at, body) = block.take().unwrap_or_default();
                    let Some(lesson) = draft.as_mut() else {
                        return error(
                            at,
                            format!("a ```{info} block before the first `##` lesson"),
                        );
                    };
                    if info == "wave" {
                        if let Some((_, first)) = &lesson.source {
                            return error(
                                at,
                                format!(
                                    "the lesson \"{}\" has a second ```wave block (its kernel is on line {first}); a lesson has one kernel",
                                    lesson.title
                                ),
                            );
                        }
                        lesson.source = Some((body, at));
                    } else {
                        if let Some(first) = lesson.launch_line {
                            return error(
                                at,
                                format!("the lesson \"{}\" has a second ```launch block (the first is on line {first})", lesson.title),
                            );
                        }
                        lesson.launch_line = Some(at);
                        apply_launch(&mut lesson.form, &body, at + 1)?;
                    }
                    continue;
                }
                _ => continue,
            }
        }
        match &event {
            Event::Start(Tag::Heading { level, id, .. }) if top => {
                let kind = match level {
                    HeadingLevel::H1 if title.is_some() => return error(
                        line,
                        "a second `#` title: a pack has one title, and a `##` heading per lesson",
                    ),
                    HeadingLevel::H1 => Heading::Title,
                    _ if title.is_none() => return no_title(line),
                    HeadingLevel::H2 => Heading::Lesson(id.as_ref().map(|i| i.to_string())),
                    _ => Heading::Prose,
                };
                let prose = matches!(kind, Heading::Prose);
                heading = Some((kind, line, String::new(), range.clone()));
                if !prose {
                    continue;
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if top => {
                let word = info.split_whitespace().next().unwrap_or_default();
                if word == "wave" || word == "launch" {
                    if title.is_none() {
                        return no_title(line);
                    }
                    block = Some((word.to_string(), line, String::new()));
                    if let Some(lesson) = draft.as_mut() {
                        lesson.cuts.push(range.clone());
                    }
                    continue;
                }
            }
            _ => {}
        }
        if title.is_none() {
            return no_title(line);
        }
        match draft.as_mut() {
            Some(lesson) => lesson.prose.push(event),
            None => intro.push(event),
        }
    }
    let Some(title) = title else {
        return no_title(lines.count());
    };
    if let Some(done) = draft.take() {
        lessons.push(finish(done, text, text.len(), address)?);
    }
    if lessons.is_empty() {
        return error(
            lines.count(),
            "the pack has no lessons: each lesson is a `##` heading with a ```wave block",
        );
    }
    Ok(Pack {
        key: format!("{title}#{:016x}", fnv1a(text.as_bytes())),
        title,
        intro_html: render::render(intro, address),
        intro_markdown: cut(text, intro_start..intro_end.unwrap_or(text.len()), &[]),
        lessons,
    })
}

/// Starts the lesson whose `##` heading on line `at` says `words` (and maybe `{#id}`).
fn begin_lesson<'a>(
    lessons: &[PackLesson],
    id: Option<String>,
    words: String,
    at: usize,
    body_start: usize,
) -> Result<Draft<'a>, PackError> {
    if lessons.len() >= MAX_PACK_LESSONS {
        return error(
            at,
            format!("a lesson pack holds at most {MAX_PACK_LESSONS} lessons"),
        );
    }
    if words.is_empty() {
        return error(at, "a lesson's `##` heading has no title");
    }
    if let Some(id) = id.as_ref().filter(|id| {
        !id.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    }) {
        return error(
            at,
            format!("the id `{id}` may hold only letters, digits, `-`, `_` and `.`"),
        );
    }
    let id = id.unwrap_or_else(|| slug(&words));
    if id.is_empty() {
        return error(
            at,
            format!("the lesson \"{words}\" needs an id: add `{{#some-id}}` to its heading"),
        );
    }
    if let Some(twin) = lessons.iter().find(|l| l.id == id) {
        return error(
            at,
            format!(
                "two lessons have the id `{id}` (the other is on line {}): give one another `{{#id}}`",
                twin.line
            ),
        );
    }
    Ok(Draft {
        id,
        title: words,
        line: at,
        prose: Vec::new(),
        body_start,
        cuts: Vec::new(),
        source: None,
        form: ConfigForm::default(),
        launch_line: None,
    })
}

fn no_title<T>(line: usize) -> Result<T, PackError> {
    error(
        line,
        "a lesson pack starts with its `# Title` line, before any other text",
    )
}

/// The text of `range` without the `cuts` inside it, trimmed.
fn cut(text: &str, range: std::ops::Range<usize>, cuts: &[std::ops::Range<usize>]) -> String {
    let mut kept = String::new();
    let mut at = range.start;
    for piece in cuts {
        kept.push_str(&text[at..piece.start]);
        at = piece.end;
    }
    kept.push_str(&text[at..range.end.max(at)]);
    kept.trim().to_string()
}

fn finish(
    draft: Draft<'_>,
    text: &str,
    end: usize,
    address: Option<&PackAddress>,
) -> Result<PackLesson, PackError> {
    let Some((source, _)) = draft.source else {
        return error(
            draft.line,
            format!(
                "the lesson \"{}\" has no ```wave block: each lesson holds one kernel",
                draft.title
            ),
        );
    };
    Ok(PackLesson {
        id: draft.id,
        title: draft.title,
        prose_html: render::render(draft.prose, address),
        prose_markdown: cut(text, draft.body_start..end, &draft.cuts),
        source,
        form: draft.form,
        line: draft.line,
    })
}

/// The launch settings a pack may write, by the Launch tab's names (and shorter ones).
const LAUNCH_NAMES: [(&str, LaunchName); 14] = [
    ("kernel", LaunchName::Kernel),
    ("grid", LaunchName::Spec(LaunchField::Grid)),
    ("workgroup size", LaunchName::Spec(LaunchField::Workgroup)),
    ("workgroup", LaunchName::Spec(LaunchField::Workgroup)),
    ("wave width", LaunchName::Spec(LaunchField::WaveWidth)),
    (
        "initial registers",
        LaunchName::Spec(LaunchField::InitialRegisters),
    ),
    ("registers", LaunchName::Spec(LaunchField::InitialRegisters)),
    ("device memory", LaunchName::Spec(LaunchField::DeviceMemory)),
    ("local memory", LaunchName::Spec(LaunchField::LocalMemory)),
    (
        "instruction budget",
        LaunchName::Spec(LaunchField::MaxInstructions),
    ),
    (
        "max instructions",
        LaunchName::Spec(LaunchField::MaxInstructions),
    ),
    ("reference emulator behaviour", LaunchName::Reference),
    ("reference behaviour", LaunchName::Reference),
    ("memory", LaunchName::Memory),
];

#[derive(Clone, Copy)]
enum LaunchName {
    Kernel,
    Spec(LaunchField),
    Reference,
    /// One region of the device memory's contents; the line may come again.
    Memory,
}

/// The launch form that `launch` lines (a ```launch block's text, as `launch_lines` writes it)
/// give: how the built-in lessons keep their forms without a Markdown reader on the page.
pub(crate) fn launch_form(launch: &str) -> Result<ConfigForm, PackError> {
    let mut form = ConfigForm::default();
    apply_launch(&mut form, launch, 1)?;
    Ok(form)
}

/// Applies the lines of a ```launch block; `first` is the line number of its first line.
fn apply_launch(form: &mut ConfigForm, body: &str, first: usize) -> Result<(), PackError> {
    let mut region_ends = Vec::new();
    for (index, raw) in body.lines().enumerate() {
        let line = first + index;
        let text = raw.trim();
        if text.is_empty() || text.starts_with(';') {
            continue;
        }
        let Some((name, value)) = text.split_once(':') else {
            return error(
                line,
                format!("`{text}` is not a launch line: write `name: value`, e.g. `wave width: 8`"),
            );
        };
        let name = name.trim().to_ascii_lowercase().replace(['_', '-'], " ");
        let value = value.trim().to_string();
        let Some((_, which)) = LAUNCH_NAMES.iter().find(|(n, _)| *n == name) else {
            let names: Vec<&str> = LAUNCH_NAMES.iter().map(|(n, _)| *n).collect();
            return error(
                line,
                format!(
                    "`{}` is not a launch setting (one of: {})",
                    name,
                    names.join(", ")
                ),
            );
        };
        match *which {
            LaunchName::Kernel => form.kernel = value,
            LaunchName::Memory => {
                let (region, end) =
                    memory_line::read_region(&value).or_else(|message| error(line, message))?;
                form.regions.push(region);
                region_ends.push((line, end));
            }
            LaunchName::Reference => {
                form.reference_behaviour = match value.to_ascii_lowercase().as_str() {
                    "on" | "yes" | "true" => true,
                    "off" | "no" | "false" => false,
                    _ => {
                        return error(
                            line,
                            format!("`{value}`: reference emulator behaviour is `on` or `off`"),
                        )
                    }
                }
            }
            LaunchName::Spec(field) => {
                check_value(field, &value).or_else(|message| error(line, message))?;
                let slot = match field {
                    LaunchField::Grid => &mut form.grid,
                    LaunchField::Workgroup => &mut form.workgroup,
                    LaunchField::WaveWidth => &mut form.wave_width,
                    LaunchField::InitialRegisters => &mut form.initial_registers,
                    LaunchField::DeviceMemory => &mut form.device_memory,
                    LaunchField::LocalMemory => &mut form.local_memory,
                    LaunchField::MaxInstructions => &mut form.max_instructions,
                };
                *slot = value;
            }
        }
    }
    memory_line::check_fit(&form.device_memory, &region_ends)
        .or_else(|(line, message)| error(line, message))
}

/// Reads one value as the Launch tab would, so a pack's mistake is named at its line.
fn check_value(field: LaunchField, value: &str) -> Result<(), String> {
    let mut spec = LaunchSpec::default();
    match field {
        LaunchField::Grid => spec.grid = value.to_string(),
        LaunchField::Workgroup => spec.workgroup = value.to_string(),
        LaunchField::WaveWidth => spec.wave_width = value.to_string(),
        LaunchField::InitialRegisters => spec.initial_registers = vec![value.to_string()],
        LaunchField::DeviceMemory => spec.device_memory = value.to_string(),
        LaunchField::LocalMemory => spec.local_memory = value.to_string(),
        LaunchField::MaxInstructions => spec.max_instructions = value.to_string(),
    }
    match spec.parse() {
        Ok(_) => Ok(()),
        Err(errors) => Err(errors
            .fields
            .into_iter()
            .find(|(f, _)| *f == field)
            .map_or_else(|| "not a valid value".to_string(), |(_, m)| m)),
    }
}

/// An id from a title: lower-case letters and digits, words joined by `-`.
pub fn slug(title: &str) -> String {
    let mut id = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    id.trim_end_matches('-').to_string()
}

/// FNV-1a, 64 bits: a stable name for a pack's text (not a defence against anyone).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Line numbers of byte offsets.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        LineIndex { starts }
    }

    fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset)
    }

    fn count(&self) -> usize {
        self.starts.len()
    }
}
