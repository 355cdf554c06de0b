//! Share links and autosave: the state as a compact, versioned, URL-safe string, and back.
//!
//! Format: `v1.` + base64url (no padding) of the raw-deflate-compressed JSON payload. Autosave
//! uses the same encoding with the tag `a1.` and only the source and configuration.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

use crate::check::Check;
use crate::form::ConfigForm;
use crate::session::Session;

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
        }
    }
}

impl std::error::Error for LinkError {}

/// Everything a share link carries.
#[derive(Serialize, Deserialize)]
struct SharePayload {
    source: String,
    form: ConfigForm,
    workgroup: u32,
    wave: u32,
    lane: u32,
    steps: u64,
    #[serde(default)]
    breakpoints: Vec<u32>,
    #[serde(default)]
    check: Option<Check>,
    /// The machine had trapped: a trap that executes nothing (instruction budget, running off
    /// the end) happens on the attempt after the last counted step, so re-running needs it.
    #[serde(default)]
    trapped: bool,
    /// The gallery example the work came from (absent when it came from none, as in older
    /// links; an id this version does not know is ignored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    example: Option<String>,
    /// Steps the timeline showed at once (0 or absent: the whole run).
    #[serde(default, skip_serializing_if = "is_zero")]
    zoom: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// What autosave keeps: the work, not the moment.
#[derive(Serialize, Deserialize)]
struct AutosavePayload {
    source: String,
    form: ConfigForm,
    #[serde(default)]
    check: Option<Check>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    example: Option<String>,
    /// Where the work stood (absent in autosaves of earlier versions, and at the start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    moment: Option<Moment>,
}

/// A moment of a run: the step, the selected wave and lane, the timeline's zoom.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub(crate) struct Moment {
    pub(crate) steps: u64,
    pub(crate) wave: u32,
    pub(crate) lane: u32,
    #[serde(default)]
    pub(crate) zoom: u64,
    #[serde(default)]
    pub(crate) trapped: bool,
}

fn encode<T: Serialize>(tag: &str, payload: &T) -> String {
    // Serialising plain structs of strings and numbers cannot fail.
    let json = serde_json::to_vec(payload).unwrap_or_default();
    let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!("{tag}.{}", URL_SAFE_NO_PAD.encode(compressed))
}

fn decode<T: DeserializeOwned>(tag: &str, text: &str) -> Result<T, LinkError> {
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
    serde_json::from_slice(&json).map_err(|e| LinkError::BadJson(e.to_string()))
}

impl Session {
    /// The URL-hash payload of the whole state: source, configuration form, kernel, selected
    /// workgroup/wave/lane, breakpoints and step count.
    pub fn share_state(&self) -> String {
        encode(
            LINK_VERSION,
            &SharePayload {
                source: self.source.clone(),
                form: self.form.clone(),
                workgroup: self.selection.workgroup,
                wave: self.selection.wave,
                lane: self.selection.lane,
                steps: self.step_count(),
                breakpoints: self.breakpoints(),
                check: self.check,
                trapped: matches!(self.state, crate::status::RunState::Trapped(_)),
                example: self.example().map(str::to_string),
                zoom: self.timeline_zoom(),
            },
        )
    }

    /// Opens a share link (with or without its leading `#`): the same source, configuration and
    /// selection, heading for the same step: [`Session::run_slice`] gets there in slices, like
    /// Run ([`Session::opening`] says where to while it does).
    pub fn restore_opening(hash: &str) -> Result<Session, LinkError> {
        let payload: SharePayload = decode(LINK_VERSION, hash)?;
        if payload.steps > MAX_LINK_STEPS {
            return Err(LinkError::TooManySteps(payload.steps));
        }
        let mut session = Session::new(&payload.source, payload.form);
        session.check = payload.check;
        session.remember_example(payload.example.as_deref());
        session.breakpoints = payload.breakpoints.into_iter().collect();
        session.head_for_moment(Moment {
            steps: payload.steps,
            wave: payload.wave,
            lane: payload.lane,
            zoom: payload.zoom,
            trapped: payload.trapped,
        })?;
        Ok(session)
    }

    /// The work to keep in local storage: source and configuration.
    pub fn autosave(&self) -> String {
        encode(
            AUTOSAVE_VERSION,
            &AutosavePayload {
                source: self.source.clone(),
                form: self.form.clone(),
                check: self.check,
                example: self.example().map(str::to_string),
                moment: self.moment(),
            },
        )
    }

    /// Where the work stands, unless that is the start with nothing selected or zoomed.
    fn moment(&self) -> Option<Moment> {
        if let Some(opening) = self.opening {
            return Some(opening);
        }
        let moment = Moment {
            steps: self.step_count(),
            wave: self.selection.wave,
            lane: self.selection.lane,
            zoom: self.timeline_zoom(),
            trapped: matches!(self.state, crate::status::RunState::Trapped(_)),
        };
        let at_start = moment.steps == 0 && moment.wave == 0 && moment.lane == 0;
        (!at_start || moment.zoom != 0).then_some(moment)
    }

    /// Sets the session out towards `moment`: the next [`Session::run_slice`] calls run to its
    /// step in slices, like Run, then select its wave and lane (see [`Session::opening`]).
    fn head_for_moment(&mut self, moment: Moment) -> Result<(), LinkError> {
        if moment.steps > MAX_LINK_STEPS {
            return Err(LinkError::TooManySteps(moment.steps));
        }
        self.select_wave(moment.wave);
        self.select_lane(moment.lane);
        self.set_timeline_zoom(moment.zoom);
        if self.state.can_run() && (moment.steps > 0 || moment.trapped) {
            self.opening = Some(moment);
        }
        Ok(())
    }

    /// A session from an autosave string, heading for the moment it was saved (as
    /// [`Session::restore_opening`]; at the start for an autosave of an earlier version, or one
    /// whose moment cannot be reached).
    pub fn restore_autosave_opening(text: &str) -> Result<Session, LinkError> {
        let payload: AutosavePayload = decode(AUTOSAVE_VERSION, text)?;
        let mut session = Session::new(&payload.source, payload.form);
        session.check = payload.check;
        session.remember_example(payload.example.as_deref());
        if let Some(moment) = payload.moment {
            if session.head_for_moment(moment).is_err() {
                session.reset();
            }
        }
        Ok(session)
    }

    /// [`Session::restore_opening`], run to its moment at once.
    pub fn restore(hash: &str) -> Result<Session, LinkError> {
        let mut session = Session::restore_opening(hash)?;
        session.finish_opening();
        Ok(session)
    }

    /// [`Session::restore_autosave_opening`], run to its moment at once.
    pub fn restore_autosave(text: &str) -> Result<Session, LinkError> {
        let mut session = Session::restore_autosave_opening(text)?;
        session.finish_opening();
        Ok(session)
    }
}
