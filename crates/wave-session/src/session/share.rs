//! Share links and autosave as the session writes and opens them (the encoding is in
//! [`crate::share`]).

use crate::run::{Moment, RunState};
use crate::share::{
    decode, encode, AutosavePayload, LinkError, SharePayload, AUTOSAVE_VERSION, LINK_VERSION,
    MAX_LINK_STEPS,
};

use super::Session;

impl Session {
    /// The URL-hash payload of the whole state: source, configuration form, kernel, selected
    /// workgroup/wave/lane, breakpoints and step count.
    pub fn share_state(&self) -> String {
        encode(
            LINK_VERSION,
            &SharePayload {
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
        session.build.set_check(payload.check);
        session.build.remember_example(payload.example.as_deref());
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
        encode(
            AUTOSAVE_VERSION,
            &AutosavePayload {
                source: self.source().to_string(),
                form: self.form().clone(),
                check: self.check(),
                example: self.example().map(str::to_string),
                moment: self.moment(),
            },
        )
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
    /// whose moment cannot be reached).
    pub fn restore_autosave_opening(text: &str) -> Result<Session, LinkError> {
        let payload: AutosavePayload = decode(AUTOSAVE_VERSION, text)?;
        let mut session = Session::new(&payload.source, payload.form);
        session.build.set_check(payload.check);
        session.build.remember_example(payload.example.as_deref());
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
