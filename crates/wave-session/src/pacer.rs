//! How the page spreads work over time: a run in slices of about [`SLICE_BUDGET_MS`] of engine
//! work each, autoplay at a chosen speed, and the bookkeeping of what a run took. The page owns
//! the timers and the tasks; this type decides everything that is not DOM work, so it is tested
//! natively.

use crate::run::RunProgress;

/// Engine work per run slice before the page yields to the browser.
pub const SLICE_BUDGET_MS: f64 = 10.0;
/// While running, the views refresh at most this often.
pub const RUN_REFRESH_MS: f64 = 200.0;
/// Typing waits this long for a pause before the source is recompiled.
pub const RECOMPILE_DEBOUNCE_MS: u64 = 250;
/// The steps of a run's first slice, before any slice has been timed.
const FIRST_SLICE_STEPS: u64 = 1000;
/// Bounds of a slice's steps: small enough that a slow kernel still yields, large enough that a
/// fast one does not spend its time in task switches.
const MIN_SLICE_STEPS: u64 = 64;
const MAX_SLICE_STEPS: u64 = 1 << 24;
/// A slice runs in this many legs and stops after the leg that reaches the budget: when the
/// machine slows in the middle of a slice (another process takes the core), the slice overruns by
/// at most a leg instead of running all the steps the last rate promised.
const LEGS_PER_SLICE: u64 = 4;
/// Autoplay speeds, in steps per second.
pub const AUTOPLAY_SPEEDS: std::ops::RangeInclusive<u32> = 1..=60;

/// Names one run or one autoplay. A task scheduled for it checks [`Pacer::is_current`] and does
/// nothing once another run, autoplay or a stop has replaced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket(u64);

/// What a finished (or paused) run took, for the page's timing measures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// When Run was asked for, in the page's clock (ms).
    pub started_ms: f64,
    /// Engine time summed over the slices.
    pub engine_ms: f64,
    pub slices: u32,
    pub longest_slice_ms: f64,
    /// Steps the run executed.
    pub steps: u64,
}

/// The pacing state of one page.
#[derive(Clone, Debug)]
pub struct Pacer {
    generation: u64,
    slice_steps: u64,
    run: RunSummary,
    steps_at_start: u64,
    /// Engine time not yet added to the shown run time (the views refresh a few times a
    /// second, not after every slice).
    unshown_ms: f64,
    /// When the last two commands changed the session, latest first (ms).
    command_times: [Option<f64>; 2],
    /// Tasks are computing the session's result check.
    checking: bool,
}

impl Default for Pacer {
    fn default() -> Self {
        Pacer {
            generation: 0,
            slice_steps: FIRST_SLICE_STEPS,
            run: RunSummary::default(),
            steps_at_start: 0,
            unshown_ms: 0.0,
            command_times: [None, None],
            checking: false,
        }
    }
}

impl Pacer {
    /// A run starts at `now_ms` with the session at `steps` executed steps.
    pub fn start_run(&mut self, now_ms: f64, steps: u64) -> Ticket {
        self.run = RunSummary {
            started_ms: now_ms,
            ..RunSummary::default()
        };
        self.steps_at_start = steps;
        self.unshown_ms = 0.0;
        self.next_ticket()
    }

    /// Autoplay starts.
    pub fn start_autoplay(&mut self) -> Ticket {
        self.next_ticket()
    }

    /// Whatever runs stops: every ticket given out so far is stale.
    pub fn cancel(&mut self) {
        self.generation += 1;
    }

    fn next_ticket(&mut self) -> Ticket {
        self.generation += 1;
        Ticket(self.generation)
    }

    /// The run or autoplay `ticket` names is still the one wanted.
    pub fn is_current(&self, ticket: Ticket) -> bool {
        ticket.0 == self.generation
    }

    /// Steps to ask of the engine in the next slice.
    pub fn slice_steps(&self) -> u64 {
        self.slice_steps
    }

    /// Steps to ask of the engine in one leg of the next slice (see [`Pacer::slice_goes_on`]).
    pub fn leg_steps(&self) -> u64 {
        (self.slice_steps / LEGS_PER_SLICE).max(MIN_SLICE_STEPS)
    }

    /// Whether a slice that has run `steps_run` steps in `elapsed_ms` runs another leg: not once
    /// it has run the slice's steps or used the budget.
    pub fn slice_goes_on(&self, steps_run: u64, elapsed_ms: f64) -> bool {
        steps_run < self.slice_steps && elapsed_ms < SLICE_BUDGET_MS
    }

    /// A slice ran `steps_run` steps in `elapsed_ms`: counts it and sizes the next one so it takes
    /// about [`SLICE_BUDGET_MS`] at that rate. A slice too quick to time well grows fourfold.
    pub fn slice_done(&mut self, steps_run: u64, elapsed_ms: f64) {
        let elapsed_ms = elapsed_ms.max(0.0);
        self.run.engine_ms += elapsed_ms;
        self.unshown_ms += elapsed_ms;
        self.run.slices += 1;
        self.run.longest_slice_ms = self.run.longest_slice_ms.max(elapsed_ms);
        let next = if elapsed_ms < 0.5 {
            self.slice_steps.saturating_mul(4)
        } else {
            (steps_run as f64 * SLICE_BUDGET_MS / elapsed_ms) as u64
        };
        self.slice_steps = next.clamp(MIN_SLICE_STEPS, MAX_SLICE_STEPS);
    }

    /// Whether the views, last refreshed at `last_refresh_ms`, should catch up at `now_ms`.
    pub fn refresh_due(&self, now_ms: f64, last_refresh_ms: f64) -> bool {
        now_ms - last_refresh_ms > RUN_REFRESH_MS
    }

    /// Engine time run since it was last taken, to add to the shown run time.
    pub fn take_unshown_ms(&mut self) -> f64 {
        std::mem::take(&mut self.unshown_ms)
    }

    /// What the run took, with the session now at `steps` executed steps.
    pub fn summary(&self, steps: u64) -> RunSummary {
        RunSummary {
            steps: steps.saturating_sub(self.steps_at_start),
            ..self.run
        }
    }

    /// A command changed the session at `at_ms`.
    pub fn record_command(&mut self, at_ms: f64) {
        let [latest, before] = &mut self.command_times;
        *before = latest.replace(at_ms);
    }

    /// When the command before the latest one changed the session: while the views follow the
    /// latest command, this says how soon it came after the one before, so a view can leave out
    /// an animation when commands come faster than it plays.
    pub fn previous_command_at(&self) -> Option<f64> {
        self.command_times[1]
    }

    /// Claims the result check: true when no check was being computed (the caller starts one).
    pub fn begin_check(&mut self) -> bool {
        !std::mem::replace(&mut self.checking, true)
    }

    /// The result check is done (or abandoned).
    pub fn end_check(&mut self) {
        self.checking = false;
    }
}

/// The pause between autoplay steps at `speed` steps per second (clamped to
/// [`AUTOPLAY_SPEEDS`]).
pub fn autoplay_delay_ms(speed: u32) -> u64 {
    let speed = speed.clamp(*AUTOPLAY_SPEEDS.start(), *AUTOPLAY_SPEEDS.end());
    1000 / u64::from(speed)
}

/// The word the run's timing measure records for how it ended.
pub fn run_outcome(progress: RunProgress) -> &'static str {
    match progress {
        RunProgress::Finished => "finished",
        RunProgress::Paused { .. } => "paused",
        RunProgress::Trapped => "trapped",
        RunProgress::Running | RunProgress::Idle => "stopped",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_run_or_a_stop_makes_earlier_tickets_stale() {
        let mut pacer = Pacer::default();
        let first = pacer.start_run(0.0, 0);
        assert!(pacer.is_current(first));
        let autoplay = pacer.start_autoplay();
        assert!(!pacer.is_current(first));
        assert!(pacer.is_current(autoplay));
        pacer.cancel();
        assert!(!pacer.is_current(autoplay));
        let second = pacer.start_run(5.0, 0);
        assert_ne!(first, second);
        assert!(pacer.is_current(second));
    }

    #[test]
    fn slices_are_sized_to_the_budget_within_bounds() {
        let mut pacer = Pacer::default();
        pacer.start_run(0.0, 0);
        assert_eq!(pacer.slice_steps(), FIRST_SLICE_STEPS);
        // Twice the budget: the next slice asks for half the steps.
        pacer.slice_done(FIRST_SLICE_STEPS, 2.0 * SLICE_BUDGET_MS);
        assert_eq!(pacer.slice_steps(), FIRST_SLICE_STEPS / 2);
        // Too quick to time: four times as many.
        pacer.slice_done(FIRST_SLICE_STEPS / 2, 0.1);
        assert_eq!(pacer.slice_steps(), FIRST_SLICE_STEPS * 2);
        // A slice cut short by the budget: sized from the steps it did run.
        pacer.slice_done(FIRST_SLICE_STEPS / 4, SLICE_BUDGET_MS / 2.0);
        assert_eq!(pacer.slice_steps(), FIRST_SLICE_STEPS / 2);
        // A very slow slice never asks for fewer than the minimum.
        pacer.slice_done(FIRST_SLICE_STEPS, 1e9);
        assert_eq!(pacer.slice_steps(), MIN_SLICE_STEPS);
        for _ in 0..40 {
            pacer.slice_done(1, 0.0);
        }
        assert_eq!(pacer.slice_steps(), MAX_SLICE_STEPS);
        // A clock that went backwards counts as no time, not as negative work.
        pacer.slice_done(1, -3.0);
        assert_eq!(pacer.summary(0).longest_slice_ms, 1e9);
    }

    #[test]
    fn a_slice_runs_in_legs_until_its_steps_or_its_budget_are_used() {
        let mut pacer = Pacer::default();
        pacer.start_run(0.0, 0);
        assert_eq!(pacer.leg_steps(), FIRST_SLICE_STEPS / LEGS_PER_SLICE);
        assert!(pacer.slice_goes_on(pacer.leg_steps(), 1.0));
        // The machine slowed: the budget is used after one leg, and the slice stops there.
        assert!(!pacer.slice_goes_on(pacer.leg_steps(), SLICE_BUDGET_MS));
        // All its steps run within the budget: done.
        assert!(!pacer.slice_goes_on(FIRST_SLICE_STEPS, 2.0));
        // A slice of few steps still runs legs of a useful size.
        pacer.slice_done(1, 1e9);
        assert_eq!(pacer.slice_steps(), MIN_SLICE_STEPS);
        assert_eq!(pacer.leg_steps(), MIN_SLICE_STEPS);
    }

    #[test]
    fn the_summary_counts_this_runs_slices_and_steps_only() {
        let mut pacer = Pacer::default();
        pacer.start_run(100.0, 7);
        pacer.slice_done(500, 4.0);
        pacer.slice_done(500, 9.0);
        let summary = pacer.summary(1007);
        assert_eq!(
            summary,
            RunSummary {
                started_ms: 100.0,
                engine_ms: 13.0,
                slices: 2,
                longest_slice_ms: 9.0,
                steps: 1000,
            }
        );
        // The next run starts from nothing.
        pacer.start_run(500.0, 1007);
        assert_eq!(pacer.summary(1007).slices, 0);
        assert_eq!(pacer.summary(1007).engine_ms, 0.0);
        // A session replaced by a shorter one never reports negative steps.
        assert_eq!(pacer.summary(3).steps, 0);
    }

    #[test]
    fn unshown_time_is_handed_out_once() {
        let mut pacer = Pacer::default();
        pacer.start_run(0.0, 0);
        pacer.slice_done(300, 3.0);
        pacer.slice_done(450, 4.5);
        assert_eq!(pacer.take_unshown_ms(), 7.5);
        assert_eq!(pacer.take_unshown_ms(), 0.0);
        pacer.slice_done(100, 1.0);
        assert_eq!(pacer.take_unshown_ms(), 1.0);
    }

    #[test]
    fn refreshes_come_at_most_every_refresh_interval() {
        let pacer = Pacer::default();
        assert!(!pacer.refresh_due(1000.0 + RUN_REFRESH_MS, 1000.0));
        assert!(pacer.refresh_due(1000.0 + RUN_REFRESH_MS + 1.0, 1000.0));
    }

    #[test]
    fn the_previous_command_is_the_one_before_the_latest() {
        let mut pacer = Pacer::default();
        assert_eq!(pacer.previous_command_at(), None);
        pacer.record_command(10.0);
        assert_eq!(pacer.previous_command_at(), None);
        pacer.record_command(25.0);
        assert_eq!(pacer.previous_command_at(), Some(10.0));
        pacer.record_command(40.0);
        assert_eq!(pacer.previous_command_at(), Some(25.0));
    }

    #[test]
    fn only_one_result_check_runs_at_a_time() {
        let mut pacer = Pacer::default();
        assert!(pacer.begin_check());
        assert!(!pacer.begin_check());
        pacer.end_check();
        assert!(pacer.begin_check());
    }

    #[test]
    fn autoplay_delays_follow_the_speed_within_its_range() {
        assert_eq!(autoplay_delay_ms(4), 250);
        assert_eq!(autoplay_delay_ms(60), 16);
        assert_eq!(autoplay_delay_ms(0), 1000);
        assert_eq!(autoplay_delay_ms(1000), 16);
    }

    #[test]
    fn outcomes_name_how_a_run_ended() {
        assert_eq!(run_outcome(RunProgress::Finished), "finished");
        assert_eq!(run_outcome(RunProgress::Trapped), "trapped");
        assert_eq!(run_outcome(RunProgress::Idle), "stopped");
    }
}
