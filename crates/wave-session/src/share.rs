//! Share links and autosave: the state as a compact, versioned, URL-safe string, and back.
//!
//! Format: `v1.` + base64url (no padding) of the raw-deflate-compressed JSON payload. Autosave
//! uses the same encoding with the tag `a1.` and only the work and where it stood.
//!
//! Compare mode writes both runs into one payload: run A's fields as a single run has them, and
//! run B's payload under `b`. A version without compare mode ignores the unknown field and opens
//! run A, and a payload without `b` is a single run, as every link made before it was.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::check::Check;
use crate::form::ConfigForm;
use crate::run::Moment;

/// Tag of share links this version writes and reads.
pub const LINK_VERSION: &str = "v1";
/// Tag of autosave strings.
pub const AUTOSAVE_VERSION: &str = "a1";
/// Longest encoded text accepted (characters after the tag).
pub const MAX_LINK_CHARS: usize = 1 << 21;
/// Largest decompressed payload accepted.
pub const MAX_DECODED_BYTES: usize = 1 << 20;
/// Largest step count a link may ask to re-run to.
pub const MAX_LINK_STEPS: u64 = 200_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    Empty,
    /// No `vN.` tag in front.
    MissingVersion,
    UnknownVersion(String),
    TooLong {
        chars: usize,
    },
    BadBase64(String),
    BadCompression(String),
    TooLarge,
    BadJson(String),
    TooManySteps(u64),
    /// The second run of a compared link or autosave is damaged (its first run is sound).
    BadSecondRun(String),
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Empty => write!(f, "the link holds no saved state"),
            LinkError::MissingVersion => write!(
                f,
                "the link is malformed: it does not start with a version tag like `{LINK_VERSION}.`"
            ),
            LinkError::UnknownVersion(tag) => write!(
                f,
                "the link was made by another version of the playground (`{tag}`; this one reads `{LINK_VERSION}`)"
            ),
            LinkError::TooLong { chars } => write!(
                f,
                "the link is too long ({chars} characters; at most {MAX_LINK_CHARS})"
            ),
            LinkError::BadBase64(e) => write!(f, "the link is malformed: not valid base64url ({e})"),
            LinkError::BadCompression(e) => {
                write!(f, "the link is damaged: its compressed data does not decompress ({e})")
            }
            LinkError::TooLarge => write!(
                f,
                "the link's content is too large (more than {MAX_DECODED_BYTES} bytes once decompressed)"
            ),
            LinkError::BadJson(e) => write!(f, "the link's content is not a saved state ({e})"),
            LinkError::TooManySteps(n) => write!(
                f,
                "the link asks to re-run {n} steps (at most {MAX_LINK_STEPS})"
            ),
            LinkError::BadSecondRun(e) => write!(
                f,
                "the link's second run (B) is not a saved state ({e}); its first run (A) is intact"
            ),
        }
    }
}

impl std::error::Error for LinkError {}

/// Everything a share link carries.
#[derive(Serialize, Deserialize)]
pub(crate) struct SharePayload {
    pub(crate) source: String,
    pub(crate) form: ConfigForm,
    pub(crate) workgroup: u32,
    pub(crate) wave: u32,
    pub(crate) lane: u32,
    pub(crate) steps: u64,
    #[serde(default)]
    pub(crate) breakpoints: Vec<u32>,
    #[serde(default)]
    pub(crate) check: Option<Check>,
    /// The machine had trapped: a trap that executes nothing (instruction budget, running off
    /// the end) happens on the attempt after the last counted step, so re-running needs it.
    #[serde(default)]
    pub(crate) trapped: bool,
    /// The gallery example the work came from (absent when it came from none, as in older
    /// links; an id this version does not know is ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) example: Option<String>,
    /// Steps the timeline showed at once (0 or absent: the whole run).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) zoom: u64,
    /// Run B of compare mode, a payload of the same kind as JSON text, read on its own
    /// (absent for a single run; only the outer payload's is read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) b: Option<Box<RawValue>>,
    /// The lesson pair the two runs came from (an id this version does not know is ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pair: Option<String>,
    /// The pack lesson the work came from, as `Pack::key/id` (absent in links made before
    /// lesson packs, and for work from no pack).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lesson: Option<String>,
    /// A small lesson pack carried whole, as its Markdown: the link opens it (absent in links
    /// made before lesson packs, and when no pack is open or it is too large to carry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pack: Option<String>,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// What autosave keeps: the work, and where it stood.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct AutosavePayload {
    pub(crate) source: String,
    pub(crate) form: ConfigForm,
    #[serde(default)]
    pub(crate) check: Option<Check>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) example: Option<String>,
    /// Where the work stood (absent in autosaves of earlier versions, and at the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) moment: Option<Moment>,
    /// Run B of compare mode, as in [`SharePayload::b`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) b: Option<Box<RawValue>>,
    /// The lesson pair the two runs came from, as in [`SharePayload::pair`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pair: Option<String>,
    /// The pack lesson the work came from, as in [`SharePayload::lesson`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) lesson: Option<String>,
}

impl PartialEq for AutosavePayload {
    fn eq(&self, other: &Self) -> bool {
        // Every field named, none skipped: a field added to the payload and left out here
        // would let a page skip saving a change to it (see `AutosaveWork`).
        let Self {
            source,
            form,
            check,
            example,
            moment,
            b,
            pair,
            lesson,
        } = self;
        // Run B is JSON text, written by `second_run` from a payload: equal texts, equal runs.
        fn json(b: &Option<Box<RawValue>>) -> Option<&str> {
            b.as_deref().map(RawValue::get)
        }
        *source == other.source
            && *form == other.form
            && *check == other.check
            && *example == other.example
            && *moment == other.moment
            && json(b) == json(&other.b)
            && *pair == other.pair
            && *lesson == other.lesson
    }
}

/// The work an autosave keeps, before it is encoded (encoding compresses it, the costly part
/// of a save). Equal works encode to equal texts, so the page can skip a save of the work it
/// saved last.
#[derive(Clone, Debug, PartialEq)]
pub struct AutosaveWork(pub(crate) AutosavePayload);

impl AutosaveWork {
    /// The text to keep in local storage.
    pub fn text(&self) -> String {
        encode(AUTOSAVE_VERSION, &self.0)
    }
}

/// A payload that may carry a second run under the field `b`.
pub(crate) trait TwoRuns: Sized {
    /// Takes the second run's JSON out, leaving a single run.
    fn take_second(&mut self) -> Option<Box<RawValue>>;
}

impl TwoRuns for SharePayload {
    fn take_second(&mut self) -> Option<Box<RawValue>> {
        self.b.take()
    }
}

impl TwoRuns for AutosavePayload {
    fn take_second(&mut self) -> Option<Box<RawValue>> {
        self.b.take()
    }
}

/// `payload` as the JSON a payload's `b` holds (`None` only if it could not be written, which
/// plain structs of strings and numbers never are).
pub(crate) fn second_run<T: Serialize>(payload: &T) -> Option<Box<RawValue>> {
    serde_json::to_string(payload)
        .ok()
        .and_then(|json| RawValue::from_string(json).ok())
}

/// What [`decode_runs`] found besides the first run: the second, none, or why the second could
/// not be read.
pub(crate) type SecondRun<T> = Result<Option<T>, LinkError>;

pub(crate) fn encode<T: Serialize>(tag: &str, payload: &T) -> String {
    // Serialising plain structs of strings and numbers cannot fail.
    let json = serde_json::to_vec(payload).unwrap_or_default();
    let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{tag}.{}", URL_SAFE_NO_PAD.encode(compressed))
}

/// Decodes a payload that may hold two runs: the first run (its own `b` emptied), and the second
/// run or the reason it is unreadable. A damaged second run leaves the first one readable, so a
/// caller can still open run A; an error in the first run, or in the payload as a whole, is an
/// error here.
pub(crate) fn decode_runs<T: DeserializeOwned + TwoRuns>(
    tag: &str,
    text: &str,
) -> Result<(T, SecondRun<T>), LinkError> {
    let json = decode_json(tag, text)?;
    // Run B is kept as JSON text while run A is read, then read on its own: a damaged run B
    // leaves run A readable.
    let mut first: T =
        serde_json::from_slice(&json).map_err(|e| LinkError::BadJson(e.to_string()))?;
    let second = first.take_second().map(|raw| {
        serde_json::from_str::<T>(raw.get())
            .map(|mut second| {
                // A later version might nest more runs; this one shows two.
                second.take_second();
                second
            })
            .map_err(|e| LinkError::BadSecondRun(e.to_string()))
    });
    Ok((first, second.transpose()))
}

/// The JSON text of an encoded payload, after its tag and size are checked.
fn decode_json(tag: &str, text: &str) -> Result<Vec<u8>, LinkError> {
    let text = text.trim();
    let text = text.strip_prefix('#').unwrap_or(text);
    if text.is_empty() {
        return Err(LinkError::Empty);
    }
    let Some((version, body)) = text.split_once('.') else {
        return Err(LinkError::MissingVersion);
    };
    if version != tag {
        let looks_like_tag = version.len() <= 8
            && version.starts_with(|c: char| c.is_ascii_alphabetic())
            && version[1..].chars().all(|c| c.is_ascii_digit())
            && version.len() > 1;
        return Err(if looks_like_tag {
            LinkError::UnknownVersion(version.to_string())
        } else {
            LinkError::MissingVersion
        });
    }
    if body.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLong { chars: body.len() });
    }
    let compressed = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|e| LinkError::BadBase64(e.to_string()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_DECODED_BYTES)
        .map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::TooLarge,
        status => LinkError::BadCompression(format!("{status:?}")),
    })?;
    Ok(json)
}
