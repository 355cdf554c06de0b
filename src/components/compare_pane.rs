//! Compare mode's own views: the bar of commands that move both runs, and between the runs the
//! lesson pair's explanation, both timelines on one step axis, the comparison table with its
//! headline, and the verdict on the results.

use leptos::prelude::*;

use super::compare::{Pair, WithRun};
use super::near_screen::{hold_off_screen, HeldOffScreen};
use super::timeline::Timeline;
use wave_engine::compare::{Measure, Row};
use wave_session::examples::compare_pair;
use wave_session::{comparison, ComparisonView};

/// The comparison of the two runs while comparing, computed once per change of either run for
/// every view that shows part of it.
pub fn compared(ctx: super::Ctx) -> Memo<Option<ComparisonView>> {
    Memo::new(move |_| {
        ctx.pair
            .get()
            .and_then(|pair| pair.a.with(|a| pair.b.with(|b| comparison(a, b))))
    })
}

/// One command on both runs.
#[component]
fn BothButton(
    #[prop(into)] label: Signal<&'static str>,
    title: &'static str,
    #[prop(into)] enabled: Signal<bool>,
    on_press: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <button
            type="button"
            class="btn"
            title=title
            disabled=move || !enabled.get()
            on:click=move |_| on_press()
        >
            {label}
        </button>
    }
}

/// A timeline's share of the width: its run's length over the longer run's, so both share
/// one step axis and the steps one run saves show as empty width.
fn axis_share(steps: u64, longest: u64) -> String {
    let share = if longest == 0 {
        100.0
    } else {
        (steps as f64 * 100.0 / longest as f64).clamp(12.0, 100.0)
    };
    format!("{share:.2}%")
}

/// The commands that move both runs, kept in reach at the top of the screen while comparing.
#[component]
pub fn BothRunsBar(pair: Pair, compared: Memo<Option<ComparisonView>>) -> impl IntoView {
    let [a, b] = pair.both();
    let can_run = move || a.with(|s| s.state().can_run()) || b.with(|s| s.state().can_run());
    let running = move || a.running.get() || b.running.get();
    let can_step_back =
        move || !running() && (a.with(|s| s.can_step_back()) || b.with(|s| s.can_step_back()));
    let alone = move || compared.with(|v| v.as_ref().and_then(|v| v.alone.clone()));
    view! {
        <section class="both-runs-bar" aria-label="Commands on both runs">
            <div class="controls" role="toolbar" aria-label="Both runs">
                <button
                    type="button"
                    class="btn primary run"
                    disabled=move || !running() && !can_run()
                    title="Run both (F5); they take turns, so each goes at about half speed"
                    on:click=move |_| pair.run_or_pause()
                >
                    {move || if running() { "Pause both" } else { "Run both" }}
                </button>
                <BothButton
                    label="Step both"
                    title="One instruction of each run's selected wave (F10)"
                    enabled=Signal::derive(can_run)
                    on_press=move || pair.step()
                />
                <BothButton
                    label="Step back both"
                    title="Undo each selected wave's last instruction (Shift+F10)"
                    enabled=Signal::derive(can_step_back)
                    on_press=move || pair.step_back()
                />
                <BothButton
                    label="Previous event both"
                    title="Each run back to its selected wave's previous event (Shift+F8)"
                    enabled=Signal::derive(can_step_back)
                    on_press=move || pair.previous_event()
                />
                <BothButton
                    label="Next event both"
                    title="Each run on to its selected wave's next event (F8)"
                    enabled=Signal::derive(can_run)
                    on_press=move || pair.next_event()
                />
                <BothButton
                    label="Reset both"
                    title="Both runs back to the start (Shift+F5)"
                    enabled=Signal::derive(|| true)
                    on_press=move || pair.reset()
                />
            </div>
            <p class="compare-alone" role="status">{alone}</p>
        </section>
    }
}

/// Between the runs: the lesson pair's explanation, both timelines on one step axis, the
/// comparison table with its headline, and the verdict on the results.
#[component]
pub fn ComparePane(pair: Pair, compared: Memo<Option<ComparisonView>>) -> impl IntoView {
    let [a, b] = pair.both();
    // Below the runs' panes on most screens, the table and its headline wait while the steps
    // come: laying out a table whose cells changed, with the page around it, was about 1 ms of
    // every "Step both" for numbers nobody saw. Once both runs have finished, the verdict on
    // their results is announced, and the table it sums up is current with it.
    let table_ref = NodeRef::new();
    let HeldOffScreen { shown: view, stale } = hold_off_screen(compared, table_ref, |v| {
        v.as_ref().is_some_and(|v| v.memory.is_some())
    });
    let lesson = Memo::new(move |_| a.lesson.get().and_then(compare_pair));
    let ends = move || (a.with(|s| s.known_end()), b.with(|s| s.known_end()));
    let share = move |side_b: bool| {
        let (end_a, end_b) = ends();
        axis_share(if side_b { end_b } else { end_a }, end_a.max(end_b))
    };
    let text =
        move |f: fn(&ComparisonView) -> Option<String>| view.with(|v| v.as_ref().and_then(f));
    // The verdict on the results follows the runs at once: it changes once, when both have
    // finished, and is announced (`role="status"`).
    let results_differ = move || compared.with(|v| v.as_ref().is_some_and(|v| v.results_differ));
    let verdict = move || {
        compared
            .with(|v| v.as_ref().and_then(|v| v.memory.clone()))
            .unwrap_or_else(|| "Results: compared when both runs have finished.".to_string())
    };
    view! {
        <section class="pane compare-pane" aria-labelledby="compare-heading">
            <h2 id="compare-heading" class="pane-title">"Both runs compared"</h2>
            {move || lesson.get().map(|lesson| view! {
                <details class="example-notes pair-notes" open>
                    <summary>{lesson.title}</summary>
                    <p>{lesson.explanation}</p>
                </details>
            })}
            <div class="compare-timelines">
                <div class="compare-timeline" style:width=move || share(false)>
                    <WithRun ctx=a>
                        <Timeline />
                    </WithRun>
                </div>
                <div class="compare-timeline" style:width=move || share(true)>
                    <WithRun ctx=b>
                        <Timeline />
                    </WithRun>
                </div>
            </div>
            <table class="comparison" node_ref=table_ref aria-busy=move || stale.get().then_some("true")>
                <caption>"Comparison"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Measure"</th>
                        <th scope="col">"A"</th>
                        <th scope="col">"B"</th>
                        <th scope="col">"Difference"</th>
                    </tr>
                </thead>
                <tbody>
                    // One row per measure, built once: a step changes only the cells' text.
                    {Measure::ALL
                        .into_iter()
                        .enumerate()
                        .map(|(index, measure)| {
                            let cell = move |f: fn(&Row) -> String| {
                                view.with(|v| v.as_ref().and_then(|v| v.rows.get(index).map(f)))
                            };
                            let differs = move || {
                                view.with(|v| {
                                    v.as_ref().and_then(|v| v.rows.get(index)).is_some_and(|r| r.differs)
                                })
                            };
                            view! {
                                <tr class:differs=differs>
                                    <th scope="row">{measure.label()}</th>
                                    <td>{move || cell(|r| r.a.clone())}</td>
                                    <td>{move || cell(|r| r.b.clone())}</td>
                                    <td>
                                        {move || cell(|r| r.difference.clone())}
                                        <span class="visually-hidden" hidden=move || !differs()>
                                            " (differs)"
                                        </span>
                                    </td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
            <p class="compare-headline" aria-busy=move || stale.get().then_some("true")>
                {move || text(|v| Some(v.headline.clone()))}
            </p>
            <p class="memory-verdict" class:differ=results_differ role="status">
                {verdict}
            </p>
        </section>
    }
}
