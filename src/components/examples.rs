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
    view! {
        <select
            class="select examples"
            aria-label="Examples"
            prop:value=move || current.get()
            on:change=on_change
        >
            <option value="">"Examples…"</option>
            {TOPICS
                .iter()
                .map(|topic| {
                    let entries: Vec<_> = examples()
                        .iter()
                        .filter(|e| e.topic == *topic)
                        .map(|e| (e.id, e.title))
                        .collect();
                    view! {
                        <optgroup label=*topic>
                            {entries
                                .into_iter()
                                .map(|(id, title)| {
                                    view! {
                                        <option value=id>
                                            {move || ctx.progress.with(|p| menu_title(title, id, p))}
                                        </option>
                                    }
                                })
                                .collect_view()}
                        </optgroup>
                    }
                })
                .collect_view()}
            <optgroup label=COMPARE_TOPIC>
                {compare_pairs()
                    .into_iter()
                    .map(|pair| view! { <option value=pair.id>{pair.title}</option> })
                    .collect_view()}
            </optgroup>
        </select>
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
