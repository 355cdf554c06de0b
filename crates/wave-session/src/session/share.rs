//! Share links and autosave as the session writes and opens them (the encoding is in
//! [`crate::share`]), for one run or for the two runs of compare mode.

use crate::examples::compare_pair;
use crate::run::{Moment, RunState};
use crate::share::{
    decode_runs, encode, second_run, AutosavePayload, AutosaveWork, LinkError, SharePayload,
    AUTOSAVE_VERSION, LINK_VERSION, MAX_LINK_STEPS,
};

use super::Session;

/// A link or autosave opened: run A, and run B when it carried the two runs of compare mode.
/// Each session heads for its own moment as [`Session::restore_opening`] describes.
pub struct Opened {
    pub a: Session,
    /// `None` for a single run (every link and autosave made before compare mode).
    pub b: Option<Session>,
    /// The lesson pair the runs came from, when this version knows it.
    pub pair: Option<String>,
}

impl Opened {
    /// Runs both openings to their ends in one go (tests, the command line).
    fn finish(mut self) -> Opened {
        self.a.finish_opening();
        if let Some(b) = &mut self.b {
            b.finish_opening();
        }
        self
    }
}

/// `id` when it names a lesson pair this version has.
fn known_pair(id: Option<String>) -> Option<String> {
    id.filter(|id| compare_pair(id).is_some())
}

impl Session {
    /// The URL-hash payload of the whole state: source, configuration form, kernel, selected
    /// workgroup/wave/lane, breakpoints and step count.
    pub fn share_state(&self) -> String {
        encode(LINK_VERSION, &self.share_payload())
    }

    /// The URL-hash payload of compare mode: this session as run A and `b` as run B, each with
    /// everything [`Session::share_state`] keeps, and the lesson pair they came from.
    pub fn share_state_compared(&self, b: &Session, pair: Option<&str>) -> String {
        let mut payload = self.share_payload();
        payload.b = second_run(&b.share_payload());
        payload.pair = pair.map(str::to_string);
        encode(LINK_VERSION, &payload)
    }

    /// [`Session::share_state`] carrying the lesson pack `pack` (its Markdown) whole, so the link
    /// opens the pack too: for small packs (see [`crate::pack::MAX_INLINE_PACK_BYTES`]).
    pub fn share_state_with_pack(&self, pack: &str) -> String {
        let mut payload = self.share_payload();
        payload.pack = Some(pack.to_string());
        encode(LINK_VERSION, &payload)
    }

    /// The lesson pack a share link carries whole, if it carries one (see
    /// [`Session::share_state_with_pack`]); a link that does not open has none.
    pub fn link_pack(hash: &str) -> Option<String> {
        decode_runs::<SharePayload>(LINK_VERSION, hash)
            .ok()
            .and_then(|(payload, _)| payload.pack)
    }

    fn share_payload(&self) -> SharePayload {
        SharePayload {
            source: self.source().to_string(),
            form: self.form().clone(),
            workgroup: self.view.selection().workgroup,
            wave: self.view.selection().wave,
            lane: self.view.selection().lane,
            steps: self.step_count(),
            breakpoints: self.breakpoints(),
            check: self.check(),
            trapped: matches!(self.run.state(), RunState::Trapped(_)),
            example: self.example().map(str::to_string),
            zoom: self.timeline_zoom(),
            b: None,
            pair: None,
            lesson: self.pack_lesson().map(str::to_string),
            pack: None,
        }
    }

    /// Opens a share link (with or without its leading `#`): the same source, configuration and
    /// selection, heading for the same step: [`Session::run_slice`] gets there in slices, like
    /// Run ([`Session::opening`] says where to while it does). A link of compare mode opens as
    /// its run A, as versions without compare mode open it.
    pub fn restore_opening(hash: &str) -> Result<Session, LinkError> {
        let (payload, _) = decode_runs::<SharePayload>(LINK_VERSION, hash)?;
        Session::open_shared(payload)
    }

    /// Opens a share link of one run or of two: run A exactly as [`Session::restore_opening`]
    /// opens it, and run B when the link has one. The step limit holds for both runs together.
    /// A damaged run B is [`LinkError::BadSecondRun`]; [`Session::restore_opening`] still opens
    /// run A from the same link.
    pub fn restore_opening_compared(hash: &str) -> Result<Opened, LinkError> {
        let (mut payload, second) = decode_runs::<SharePayload>(LINK_VERSION, hash)?;
        let second = second?;
        let steps = second
            .as_ref()
            .map_or(0, |b| b.steps)
            .saturating_add(payload.steps);
        if steps > MAX_LINK_STEPS {
            return Err(LinkError::TooManySteps(steps));
        }
        let pair = known_pair(payload.pair.take());
        Ok(Opened {
            a: Session::open_shared(payload)?,
            b: second.map(Session::open_shared).transpose()?,
            pair,
        })
    }

    fn open_shared(payload: SharePayload) -> Result<Session, LinkError> {
        if payload.steps > MAX_LINK_STEPS {
            return Err(LinkError::TooManySteps(payload.steps));
        }
        let mut session = Session::new(&payload.source, payload.form);
        session.build.set_check(payload.check);
        session.build.remember_example(payload.example.as_deref());
        session.build.set_pack_lesson(payload.lesson);
        session.run.set_breakpoints(payload.breakpoints);
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
        self.autosave_work().text()
    }

    /// The work to keep in local storage, not yet encoded (see [`AutosaveWork`]).
    pub fn autosave_work(&self) -> AutosaveWork {
        AutosaveWork(self.autosave_payload())
    }

    /// The work of compare mode to keep in local storage: this session as run A and `b` as run
    /// B, each as [`Session::autosave`] keeps it, and the lesson pair they came from.
    pub fn autosave_compared(&self, b: &Session, pair: Option<&str>) -> String {
        self.autosave_work_compared(b, pair).text()
    }

    /// [`Session::autosave_compared`]'s work, not yet encoded (see [`AutosaveWork`]).
    pub fn autosave_work_compared(&self, b: &Session, pair: Option<&str>) -> AutosaveWork {
        let mut payload = self.autosave_payload();
        payload.b = second_run(&b.autosave_payload());
        payload.pair = pair.map(str::to_string);
        AutosaveWork(payload)
    }

    fn autosave_payload(&self) -> AutosavePayload {
        AutosavePayload {
            source: self.source().to_string(),
            form: self.form().clone(),
            check: self.check(),
            example: self.example().map(str::to_string),
            moment: self.moment(),
            b: None,
            pair: None,
            lesson: self.pack_lesson().map(str::to_string),
        }
    }

    /// Where the work stands, unless that is the start with nothing selected or zoomed.
    fn moment(&self) -> Option<Moment> {
        if let Some(opening) = self.run.opening() {
            return Some(opening);
        }
        let moment = Moment {
            steps: self.step_count(),
            wave: self.view.selection().wave,
            lane: self.view.selection().lane,
            zoom: self.timeline_zoom(),
            trapped: matches!(self.run.state(), RunState::Trapped(_)),
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
        self.timeline.set_zoom(moment.zoom);
        if self.run.state().can_run() && (moment.steps > 0 || moment.trapped) {
            self.run.set_opening(Some(moment));
        }
        Ok(())
    }

    /// A session from an autosave string, heading for the moment it was saved (as
    /// [`Session::restore_opening`]; at the start for an autosave of an earlier version, or one
    /// whose moment cannot be reached). An autosave of compare mode opens as its run A.
    pub fn restore_autosave_opening(text: &str) -> Result<Session, LinkError> {
        let (payload, _) = decode_runs::<AutosavePayload>(AUTOSAVE_VERSION, text)?;
        Ok(Session::open_autosaved(payload, true))
    }

    /// An autosave of one run or of two: run A exactly as [`Session::restore_autosave_opening`]
    /// opens it, and run B when the autosave has one. When the two moments together are more
    /// steps than a link may re-run, both runs open at the start. A damaged run B is
    /// [`LinkError::BadSecondRun`]; [`Session::restore_autosave_opening`] still opens run A
    /// from the same text.
    pub fn restore_autosave_opening_compared(text: &str) -> Result<Opened, LinkError> {
        let (mut payload, second) = decode_runs::<AutosavePayload>(AUTOSAVE_VERSION, text)?;
        let second = second?;
        let steps_of = |p: &AutosavePayload| p.moment.as_ref().map_or(0, |m| m.steps);
        let steps = second
            .as_ref()
            .map_or(0, steps_of)
            .saturating_add(steps_of(&payload));
        let reachable = steps <= MAX_LINK_STEPS;
        let pair = known_pair(payload.pair.take());
        Ok(Opened {
            a: Session::open_autosaved(payload, reachable),
            b: second.map(|b| Session::open_autosaved(b, reachable)),
            pair,
        })
    }

    /// The session an autosave payload holds, heading for its moment when `reachable` (and the
    /// moment itself is within the step limit), else at the start.
    fn open_autosaved(payload: AutosavePayload, reachable: bool) -> Session {
        let mut session = Session::new(&payload.source, payload.form);
        session.build.set_check(payload.check);
        session.build.remember_example(payload.example.as_deref());
        session.build.set_pack_lesson(payload.lesson);
        if let Some(moment) = payload.moment.filter(|_| reachable) {
            if session.head_for_moment(moment).is_err() {
                session.reset();
            }
        }
        session
    }

    /// [`Session::restore_opening`], run to its moment at once.
    pub fn restore(hash: &str) -> Result<Session, LinkError> {
        let mut session = Session::restore_opening(hash)?;
        session.finish_opening();
        Ok(session)
    }

    /// [`Session::restore_opening_compared`], both runs run to their moments at once.
    pub fn restore_compared(hash: &str) -> Result<Opened, LinkError> {
        Session::restore_opening_compared(hash).map(Opened::finish)
    }

    /// [`Session::restore_autosave_opening`], run to its moment at once.
    pub fn restore_autosave(text: &str) -> Result<Session, LinkError> {
        let mut session = Session::restore_autosave_opening(text)?;
        session.finish_opening();
        Ok(session)
    }

    /// [`Session::restore_autosave_opening_compared`], both runs run to their moments at once.
    pub fn restore_autosave_compared(text: &str) -> Result<Opened, LinkError> {
        Session::restore_autosave_opening_compared(text).map(Opened::finish)
    }
}

impl Session {
    /// "Download as lesson pack": a file name and the Markdown to write. The open pack `open`
    /// (its text as opened) when the work is one of its lessons; the built-in pack of a built-in
    /// lesson left as it was; else this kernel as a pack of one lesson, titled after its example
    /// ("Untitled kernel" for work from none), with its launch lines.
    pub fn lesson_pack(&self, open: Option<(&crate::pack::Pack, &str)>) -> (String, String) {
        use crate::pack::{kernel_pack, pack_markdown, slug};
        let file = |title: &str| {
            let name = slug(title);
            format!(
                "{}.md",
                if name.is_empty() {
                    "lesson-pack"
                } else {
                    &name
                }
            )
        };
        if let (Some((pack, text)), Some(lesson)) = (open, self.pack_lesson()) {
            if lesson.rsplit_once('/').map(|(key, _)| key) == Some(pack.key.as_str()) {
                return (file(&pack.title), text.to_string());
            }
        }
        if let (Some(id), false) = (self.example(), self.example_edited()) {
            let builtin = crate::examples::builtin_packs()
                .iter()
                .find(|p| p.lessons.iter().any(|l| l.id == id));
            if let Some(pack) = builtin {
                return (file(&pack.title), pack_markdown(pack));
            }
        }
        let example = self.example().and_then(crate::examples::example);
        let (title, id, prose) = match &example {
            Some(e) => (e.title, e.id, e.explanation),
            None => ("Untitled kernel", "", ""),
        };
        let text = kernel_pack(title, id, prose, self.source(), self.form());
        (file(title), text)
    }
}
