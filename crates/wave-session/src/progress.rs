//! The learner's progress, kept in the browser only: per kernel, the questions answered right,
//! wrong and skipped, whether the lesson was run to its end, and the best "Be the warp" score of
//! a run that reached its end.
//!
//! Stored as text, one line per kernel after a version line, so that anything the page finds
//! in storage (an older version's text, or someone's edit) reads as far as it makes sense and
//! never fails: unreadable lines are dropped. Version 1 lines have no warp score; they still
//! read, with none.

use std::collections::BTreeMap;

use crate::build::Build;
use crate::quiz::Score;
use crate::warp::WarpScore;

/// The first line of the stored text.
const HEADER: &str = "wave-progress 2";

/// The first line of the text version 1 stored, before warp scores were kept.
const HEADER_V1: &str = "wave-progress 1";

/// One kernel's progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub score: Score,
    /// The lesson ran to its end at least once.
    pub done: bool,
    /// The best "Be the warp" score of a run that reached its end (none asked: never played).
    pub warp: WarpScore,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    entries: BTreeMap<String, Entry>,
}

impl Progress {
    /// Reads stored progress; anything unreadable is left out.
    pub fn parse(text: &str) -> Progress {
        let mut lines = text.lines();
        let with_warp = match lines.next().map(str::trim) {
            Some(HEADER) => true,
            Some(HEADER_V1) => false,
            _ => return Progress::default(),
        };
        let entries = lines
            .filter_map(|line| {
                let mut fields = line.split('\t');
                let key = fields.next()?.to_string();
                let mut number = || fields.next()?.parse::<u32>().ok();
                let score = Score {
                    right: number()?,
                    wrong: number()?,
                    skipped: number()?,
                };
                let done = number()? == 1;
                let warp = if with_warp {
                    WarpScore {
                        right: number()?,
                        shown: number()?,
                    }
                } else {
                    WarpScore::default()
                };
                (!key.is_empty()).then_some((key, Entry { score, done, warp }))
            })
            .collect();
        Progress { entries }
    }

    pub fn to_text(&self) -> String {
        let mut text = String::from(HEADER);
        for (key, entry) in &self.entries {
            let s = entry.score;
            text.push_str(&format!(
                "\n{key}\t{}\t{}\t{}\t{}\t{}\t{}",
                s.right,
                s.wrong,
                s.skipped,
                u8::from(entry.done),
                entry.warp.right,
                entry.warp.shown
            ));
        }
        text
    }

    pub fn entry(&self, key: &str) -> Entry {
        self.entries.get(key).copied().unwrap_or_default()
    }

    /// Counts an answer (`None`: skipped) for the kernel `key`.
    pub fn record_answer(&mut self, key: &str, correct: Option<bool>) {
        self.entries
            .entry(clean_key(key))
            .or_default()
            .score
            .add(correct);
    }

    /// Marks the kernel `key` done; false when it already was.
    pub fn mark_done(&mut self, key: &str) -> bool {
        let entry = self.entries.entry(clean_key(key)).or_default();
        !std::mem::replace(&mut entry.done, true)
    }

    /// Keeps `score`, the "Be the warp" score of a run of the kernel `key` that reached its end,
    /// if it beats the one kept: more right, or as many right with fewer shown. False when the
    /// kept one stays (or `score` asked nothing).
    pub fn record_warp(&mut self, key: &str, score: WarpScore) -> bool {
        if score.asked() == 0 {
            return false;
        }
        let entry = self.entries.entry(clean_key(key)).or_default();
        let kept = entry.warp;
        let better = kept.asked() == 0
            || score.right > kept.right
            || (score.right == kept.right && score.shown < kept.shown);
        if better {
            entry.warp = score;
        }
        better
    }
}

/// Keys are one field of one line.
fn clean_key(key: &str) -> String {
    key.replace(['\t', '\n', '\r'], " ")
}

/// Which kernel progress is kept for: the pack lesson or gallery example the work came from,
/// else the running kernel's name. A pack lesson's key holds the pack's title and a hash of its
/// text, so each pack keeps its own ticks.
pub(crate) fn progress_key(build: &Build) -> String {
    if let Some(lesson) = build.pack_lesson() {
        return pack_progress_key(lesson);
    }
    match (build.example(), build.kernel()) {
        (Some(id), _) => format!("example:{id}"),
        (None, Some(kernel)) => format!("kernel:{}", kernel.name),
        (None, None) => "kernel:".to_string(),
    }
}

/// The progress key of the lesson `lesson` (`Pack::key/id`) of a pack.
pub fn pack_progress_key(lesson: &str) -> String {
    format!("pack:{lesson}")
}

#[cfg(test)]
mod tests {
    use super::{Entry, Progress};
    use crate::quiz::Score;
    use crate::warp::WarpScore;

    #[test]
    fn progress_survives_a_round_trip_through_its_text() {
        let mut progress = Progress::default();
        progress.record_answer("example:if-else", Some(true));
        progress.record_answer("example:if-else", Some(false));
        progress.record_answer("kernel:mine", None);
        assert!(progress.mark_done("example:if-else"));
        assert!(!progress.mark_done("example:if-else"));
        let again = Progress::parse(&progress.to_text());
        assert_eq!(again, progress);
        assert_eq!(
            again.entry("example:if-else"),
            Entry {
                score: Score {
                    right: 1,
                    wrong: 1,
                    skipped: 0
                },
                done: true,
                warp: WarpScore::default()
            }
        );
        assert_eq!(again.entry("example:unknown"), Entry::default());
    }

    #[test]
    fn unreadable_progress_reads_as_far_as_it_makes_sense() {
        assert_eq!(Progress::parse(""), Progress::default());
        assert_eq!(Progress::parse("{\"json\": true}"), Progress::default());
        let text = "wave-progress 2\nexample:a\t1\t0\t0\t1\t3\t1\nbroken line\nexample:b\tx\t0\t0\t0\t0\t0\nexample:c\t1\t0\t0\t1\n\t1\t1\t1\t1\t1\t1";
        let progress = Progress::parse(text);
        assert!(progress.entry("example:a").done);
        assert_eq!(
            progress.entry("example:a").warp.text(),
            "3 of 4 right, 1 shown"
        );
        assert_eq!(progress.entry("example:b"), Entry::default());
        // A version 2 line without its warp score is broken.
        assert_eq!(progress.entry("example:c"), Entry::default());
        assert_eq!(
            progress.to_text(),
            "wave-progress 2\nexample:a\t1\t0\t0\t1\t3\t1"
        );
        assert_eq!(
            Progress::parse("wave-progress 3\nexample:a\t1\t0\t0\t1\t3\t1"),
            Progress::default()
        );
    }

    #[test]
    fn a_key_cannot_break_the_lines() {
        let mut progress = Progress::default();
        progress.mark_done("kernel:a\tb\nc");
        let again = Progress::parse(&progress.to_text());
        assert!(again.entry("kernel:a b c").done);
    }

    #[test]
    fn version_1_text_still_reads_without_warp_scores_and_is_written_as_version_2() {
        let text = "wave-progress 1\nexample:if-else\t2\t1\t0\t1\npack:tiny/half\t0\t0\t1\t0";
        let progress = Progress::parse(text);
        let entry = progress.entry("example:if-else");
        assert_eq!(
            (entry.score.right, entry.score.wrong, entry.done),
            (2, 1, true)
        );
        assert_eq!(entry.warp, WarpScore::default());
        assert_eq!(progress.entry("pack:tiny/half").score.skipped, 1);
        assert_eq!(
            progress.to_text(),
            "wave-progress 2\nexample:if-else\t2\t1\t0\t1\t0\t0\npack:tiny/half\t0\t0\t1\t0\t0\t0"
        );
    }

    #[test]
    fn the_best_warp_score_of_a_finished_run_is_kept() {
        let mut progress = Progress::default();
        let score = |right, shown| WarpScore { right, shown };
        assert!(!progress.record_warp("example:loop-exit", score(0, 0)));
        assert_eq!(progress.entry("example:loop-exit"), Entry::default());
        assert!(progress.record_warp("example:loop-exit", score(10, 4)));
        // Fewer right, or as many right with more shown, does not replace it.
        assert!(!progress.record_warp("example:loop-exit", score(9, 5)));
        assert!(!progress.record_warp("example:loop-exit", score(10, 5)));
        assert!(progress.record_warp("example:loop-exit", score(10, 3)));
        assert!(progress.record_warp("example:loop-exit", score(12, 2)));
        let again = Progress::parse(&progress.to_text());
        assert_eq!(again.entry("example:loop-exit").warp, score(12, 2));
        assert!(!again.entry("example:loop-exit").done);
    }
}
