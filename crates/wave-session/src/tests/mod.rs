mod captions;
mod commands;
mod data_movement;
mod departures;
mod examples;
mod export;
mod export_trace;
mod form;
mod layers;
mod packs;
mod pairs;
mod quiz;
mod share;
mod status;
mod time_travel;
mod views;
mod warp;

use crate::examples::example;
use crate::{ConfigForm, Session};

/// A session on one of the gallery's lessons, with its questions off (they stop Step and Run;
/// the quiz tests turn them on).
pub(super) fn lesson(id: &str) -> Session {
    let mut session = Session::from_example(&example(id).expect("example exists"));
    session.set_questions_on(false);
    session
}

/// A session on `source` with one workgroup of `threads` threads in waves of `width`.
pub(super) fn session(source: &str, threads: u32, width: u32) -> Session {
    let form = ConfigForm {
        workgroup: format!("{threads},1,1"),
        wave_width: width.to_string(),
        device_memory: "1024".to_string(),
        ..ConfigForm::default()
    };
    Session::new(source, form)
}

pub(super) fn active_count(session: &Session) -> usize {
    session.lanes().iter().filter(|l| l.active).count()
}

/// The u32 words of device memory from `offset`.
pub(super) fn words(session: &Session, offset: usize, count: usize) -> Vec<u32> {
    let bytes = session.machine().expect("machine").device().bytes();
    (0..count)
        .map(|i| {
            let at = offset + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        })
        .collect()
}

/// The 1-based line of the first source line containing `needle`.
pub(super) fn line(session: &Session, needle: &str) -> u32 {
    session
        .source()
        .lines()
        .position(|l| l.contains(needle))
        .expect("needle in source") as u32
        + 1
}

/// Steps until the selected wave's next instruction is on the first line that begins with
/// `start` (leading spaces aside).
pub(super) fn step_to_line_starting(session: &mut Session, start: &str) {
    let target = session
        .source()
        .lines()
        .position(|l| l.trim_start().starts_with(start))
        .expect("a line begins so") as u32
        + 1;
    for _ in 0..400 {
        if session.current_line() == Some(target) {
            return;
        }
        assert!(session.step(), "stopped before line {target}");
    }
    panic!("never reached line {target}");
}
