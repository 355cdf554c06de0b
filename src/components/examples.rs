//! The examples picker (in the header) and the explanation panel beside the editor. Which
//! example the work came from is the session's (so share links and autosaves keep it).

use leptos::prelude::*;

use super::compare;
use super::lessons::{open_pack, LessonList, ListEntry};
use super::{target_value, use_ctx};
use wave_session::examples::{
    compare_pair, compare_pairs, example, examples, lesson_prose_html, next_lesson, COMPARE_TOPIC,
    TOPICS,
};
use wave_session::markup::escape_into;
use wave_session::{Progress, Session};

/// A lesson's menu entry: its title, marked done and with its score when it has one.
fn menu_title(title: &str, id: &str, progress: &Progress) -> String {
    let entry = progress.entry(&format!("example:{id}"));
    let mut text = String::new();
    if entry.done {
        text.push_str("✓ ");
    }
    text.push_str(title);
    let score = entry.score;
    if score.asked() > 0 {
        text.push_str(&format!(" ({} of {} right)", score.right, score.asked()));
    }
    text
}

/// The menu's options as markup: "Examples…", one group per topic with its lessons marked done
/// and scored from `progress`, then the lesson pairs; `current` (an example's or a pair's id,
/// or none) selected. Written out rather than built as views: one view per option, each with a
/// reactive text, cost more code and start-up work than the options themselves, for texts that
/// change only when a lesson is done.
fn menu_markup(progress: &Progress, current: &str) -> String {
    let mut out = String::with_capacity(4096);
    push_option(&mut out, "", "Examples…", current);
    for topic in TOPICS {
        let entries = examples()
            .iter()
            .filter(|e| e.topic == topic)
            .map(|e| (e.id, menu_title(e.title, e.id, progress)));
        push_group(&mut out, topic, entries, current);
    }
    let pairs = compare_pairs();
    let entries = pairs.iter().map(|pair| (pair.id, pair.title.to_string()));
    push_group(&mut out, COMPARE_TOPIC, entries, current);
    out
}

fn push_group<'a>(
    out: &mut String,
    label: &str,
    entries: impl Iterator<Item = (&'a str, String)>,
    current: &str,
) {
    out.push_str("<optgroup label=\"");
    escape_into(out, label);
    out.push_str("\">");
    for (id, text) in entries {
        push_option(out, id, &text, current);
    }
    out.push_str("</optgroup>");
}

fn push_option(out: &mut String, id: &str, text: &str, current: &str) {
    out.push_str("<option value=\"");
    escape_into(out, id);
    out.push('"');
    if id == current {
        out.push_str(" selected");
    }
    out.push('>');
    escape_into(out, text);
    out.push_str("</option>");
}

#[component]
pub fn ExamplePicker() -> impl IntoView {
    let ctx = use_ctx();
    // A lesson pair while comparing one, else the example of the run examples open in.
    let current = Memo::new(move |_| match ctx.lesson.get() {
        Some(lesson) => lesson,
        None => ctx.with(|s| s.example().unwrap_or_default()),
    });
    let on_change = move |event: leptos::ev::Event| {
        let id = target_value(&event);
        if let Some(pair) = compare_pair(&id) {
            compare::open_lesson(ctx, &pair);
        } else if let Some(found) = example(&id) {
            let run = compare::target(ctx);
            run.replace_session(Session::from_example(&found));
            // One run changed: the two are no longer the lesson pair.
            ctx.lesson.set(None);
            ctx.alert.set(None);
        }
    };
    // Written again only when a lesson's tick or score changes; a pick moves the selection by
    // `prop:value` and leaves the options as they are (a screen reader keeps its place). The
    // options carry the selection, so writing them again keeps it.
    let options = move || {
        ctx.progress
            .with(|p| menu_markup(p, current.get_untracked()))
    };
    view! {
        <select
            class="select examples"
            aria-label="Examples"
            inner_html=options
            prop:value=move || current.get()
            on:change=on_change
        ></select>
    }
}

/// The example's explanation (collapsible), marked when the work differs from the example, with
/// a way back to the original.
#[component]
pub fn ExampleNotes() -> impl IntoView {
    let ctx = use_ctx();
    let id = Memo::new(move |_| ctx.with(|s| s.example()));
    let current = Memo::new(move |_| id.get().and_then(example));
    let edited = Memo::new(move |_| ctx.with(|s| s.example_edited()));
    let restore = move |_| {
        if let Some(found) = current.get_untracked() {
            ctx.replace_session(Session::from_example(&found));
        }
    };
    let next = Memo::new(move |_| id.get().and_then(next_lesson));
    let go_next = move |_| {
        if let Some(found) = next.get_untracked() {
            ctx.replace_session(Session::from_example(&found));
        }
    };
    let lessons_done = move || {
        ctx.progress.with(|p| {
            let lessons: Vec<_> = examples().iter().filter(|e| e.is_lesson()).collect();
            let done = lessons
                .iter()
                .filter(|e| p.entry(&format!("example:{}", e.id)).done)
                .count();
            format!("{done} of {} lessons done", lessons.len())
        })
    };
    let is_lesson = move || current.with(|e| e.as_ref().is_some_and(|e| e.is_lesson()));
    let builtin_entries = Signal::derive(|| {
        examples()
            .iter()
            .filter(|e| e.is_lesson())
            .map(|e| ListEntry {
                title: e.title.to_string(),
                progress_key: format!("example:{}", e.id),
            })
            .collect::<Vec<_>>()
    });
    let builtin_current = Signal::derive(move || {
        let id = id.get()?;
        examples()
            .iter()
            .filter(|e| e.is_lesson())
            .position(|e| e.id == id)
    });
    // This run's Be the warp score, while it is on: it starts over with the run.
    let warp_score = move || {
        ctx.with(|s| {
            let score = s.warp_score();
            (s.warp_on() && score.asked() > 0).then(|| format!("Be the warp: {}", score.text()))
        })
    };
    view! {
        <Show when=move || current.with(Option::is_some)>
            <details class="example-notes" open>
                <summary>
                    {move || current.with(|e| e.as_ref().map(|e| e.title).unwrap_or_default())}
                    <span class="edited-note" hidden=move || !edited.get()>"edited"</span>
                </summary>
                // A lesson's prose is its pack's Markdown, rendered inert; other examples are text.
                {move || {
                    let prose = current.with(|e| e.as_ref().and_then(|e| lesson_prose_html(e.id)));
                    match prose {
                        Some(html) => view! { <div class="lesson-prose" inner_html=html></div> }.into_any(),
                        None => view! {
                            <p>{current.with(|e| e.as_ref().map(|e| e.explanation).unwrap_or_default())}</p>
                        }
                        .into_any(),
                    }
                }}
                <div class="example-actions">
                    <Show when=move || edited.get()>
                        <button type="button" class="btn small" on:click=restore>
                            "Restore the original example"
                        </button>
                    </Show>
                    <Show when=move || next.with(Option::is_some)>
                        <button
                            type="button"
                            class="btn small primary"
                            title=move || next.with(|n| n.as_ref().map(|n| format!("Next: {}", n.title)).unwrap_or_default())
                            on:click=go_next
                        >
                            "Next lesson"
                        </button>
                    </Show>
                    <span class="lesson-path-note">{lessons_done}</span>
                    <span class="lesson-path-note">{warp_score}</span>
                </div>
                <Show when=move || open_pack().with(Option::is_none) && is_lesson()>
                    <LessonList
                        title="Built-in lessons"
                        entries=builtin_entries
                        current=builtin_current
                        on_pick=Callback::new(move |index: usize| {
                            let picked = examples().iter().filter(|e| e.is_lesson()).nth(index);
                            if let Some(found) = picked {
                                ctx.replace_session(Session::from_example(found));
                            }
                        })
                    />
                </Show>
            </details>
        </Show>
    }
}

/// The result check of the example once the grid finished.
#[component]
pub fn CheckReport() -> impl IntoView {
    let ctx = use_ctx();
    let report = move || {
        ctx.with(|s| {
            s.check_report().map(str::to_string).or_else(|| {
                s.check_pending()
                    .then(|| "Checking the result…".to_string())
            })
        })
    };
    view! {
        <Show when=move || report().is_some()>
            <p class="check-report">
                {move || report().unwrap_or_default()}
            </p>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::menu_markup;
    use wave_session::examples::{compare_pairs, examples, COMPARE_TOPIC, TOPICS};
    use wave_session::Progress;

    #[test]
    fn the_menu_lists_every_example_by_topic_then_the_pairs_with_the_current_one_selected() {
        let first = &examples()[0];
        let mut progress = Progress::default();
        progress.mark_done(&format!("example:{}", first.id));
        progress.record_answer(&format!("example:{}", first.id), Some(true));
        let markup = menu_markup(&progress, first.id);
        assert!(markup.starts_with("<option value=\"\">Examples…</option><optgroup label=\""));
        // One option per example and per pair, each once, and one selected.
        let options = markup.matches("<option ").count();
        assert_eq!(options, 1 + examples().len() + compare_pairs().len());
        for example in examples() {
            let value = format!("<option value=\"{}\"", example.id);
            assert_eq!(markup.matches(&value).count(), 1, "{value}");
        }
        assert_eq!(markup.matches(" selected").count(), 1);
        let selected = format!(
            "<option value=\"{}\" selected>✓ {} (1 of 1 right)</option>",
            first.id, first.title
        );
        assert!(markup.contains(&selected), "{markup}");
        // The groups in the menu's order, the pairs last.
        let at = |label: &str| markup.find(&format!("<optgroup label=\"{label}\">"));
        let groups: Vec<_> = TOPICS
            .iter()
            .chain([&COMPARE_TOPIC])
            .map(|t| at(t))
            .collect();
        assert!(groups.iter().all(Option::is_some), "{groups:?}");
        assert!(groups.windows(2).all(|w| w[0] < w[1]), "{groups:?}");
        // No example picked: the placeholder is the selection.
        let none = menu_markup(&Progress::default(), "");
        assert!(none.starts_with("<option value=\"\" selected>Examples…</option>"));
        assert!(!none.contains('✓'));
    }
}
