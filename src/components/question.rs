//! Predict, then reveal: the open question with its answer field, "Check answer" and "Skip
//! question", the reveal of the last one, the score, and the "Questions" switch. The rules
//! (where questions stop, how answers are judged) are the session's (`wave_session::quiz`).

use leptos::prelude::*;

use super::switch::Switch;
use super::{target_value, use_ctx};
use wave_session::{lanes_phrase, Answer, QuestionKind};

/// "Questions": stops at the kernel's questions, or runs past them. Shown when the kernel has
/// any.
#[component]
pub fn QuestionsSwitch() -> impl IntoView {
    let ctx = use_ctx();
    let has_questions = Memo::new(move |_| ctx.with(|s| !s.question_stops().is_empty()));
    let on = Memo::new(move |_| ctx.with(|s| s.questions_on()));
    view! {
        <Show when=move || has_questions.get()>
            <Switch
                label="Questions"
                title="Stop at the kernel's questions and ask before revealing"
                on=on
                toggle=Callback::new(move |on| ctx.set_questions_on(on))
            />
        </Show>
    }
}

#[component]
pub fn QuestionPanel() -> impl IntoView {
    let ctx = use_ctx();
    let question = Memo::new(move |_| ctx.with(|s| s.open_question().cloned()));
    let reveal = Memo::new(move |_| ctx.with(|s| s.reveal().cloned()));
    let width = Memo::new(move |_| ctx.with(|s| s.wave_width()));
    let text = RwSignal::new(String::new());
    // A new question starts a new answer: the lanes as they are now for `?mask`, nothing typed.
    Effect::new(move |_| {
        let kind = question.with(|q| q.as_ref().map(|q| (q.kind, q.line)));
        let active = ctx.peek(|s| {
            s.lanes()
                .iter()
                .filter(|l| l.active)
                .fold(0u64, |m, l| m | 1 << l.lane)
        });
        ctx.prediction.set(match kind {
            Some((QuestionKind::Mask, _)) => Some(active),
            _ => None,
        });
        ctx.picked_line.set(None);
        text.set(String::new());
    });
    // Read only while the panel is on show: a step without a question pays nothing for it.
    let score = move || {
        let key = ctx.with(|s| s.progress_key());
        let entry = ctx.progress.with(|p| p.entry(&key));
        let s = entry.score;
        (s.asked() > 0).then(|| {
            format!(
                "This kernel: {} right, {} wrong, {} skipped",
                s.right, s.wrong, s.skipped
            )
        })
    };
    // Built only while a `?next` question is open: a step must not pay for it.
    let choices = Memo::new(move |_| {
        let asking_next = question.with(|q| q.as_ref().map(|q| q.kind) == Some(QuestionKind::Next));
        if asking_next {
            ctx.with(|s| s.line_choices())
        } else {
            Vec::new()
        }
    });
    let check = move || {
        let Some(kind) = question.with_untracked(|q| q.as_ref().map(|q| q.kind)) else {
            return;
        };
        let answer = match kind {
            QuestionKind::Mask => Answer::Lanes(ctx.prediction.get_untracked().unwrap_or(0)),
            QuestionKind::Next => {
                let Some(line) = ctx.picked_line.get_untracked() else {
                    ctx.notice
                        .set(Some("Pick the line that runs next first.".to_string()));
                    return;
                };
                Answer::Line((line != 0).then_some(line))
            }
            QuestionKind::Stack => match text.get_untracked().trim().parse::<u32>() {
                Ok(depth) => Answer::Depth(depth),
                Err(_) => {
                    ctx.notice.set(Some(
                        "The stack depth is a whole number, 0 or more.".to_string(),
                    ));
                    return;
                }
            },
            QuestionKind::Value(_) => {
                let typed = text.get_untracked();
                if wave_session::parse_value(&typed).is_none() {
                    ctx.notice.set(Some(format!(
                        "“{}” is not a number: type e.g. 12, -3, 0x1f or 1.5.",
                        typed.trim()
                    )));
                    return;
                }
                Answer::Value(typed)
            }
        };
        ctx.check_answer(answer);
    };
    let answer_field = move || {
        let q = question.get()?;
        Some(match q.kind {
            QuestionKind::Mask => view! {
                <p class="answer-hint">
                    "Click the lanes in the Lanes view (or Space on a lane) to say which will be active. Your answer: "
                    <span class="answer-lanes">
                        {move || lanes_phrase(ctx.prediction.get().unwrap_or(0), width.get())}
                    </span>
                </p>
            }
            .into_any(),
            QuestionKind::Next => view! {
                <label class="answer-field">
                    <span>"Line that runs next"</span>
                    <select
                        class="select"
                        prop:value=move || ctx.picked_line.get().map(|l| l.to_string()).unwrap_or_default()
                        on:change=move |event| {
                            ctx.picked_line.set(target_value(&event).parse::<u32>().ok());
                        }
                    >
                        <option value="">"Pick a line…"</option>
                        {move || {
                            choices
                                .get()
                                .into_iter()
                                .map(|(line, code)| {
                                    view! { <option value=line.to_string()>{format!("line {line}: {code}")}</option> }
                                })
                                .collect_view()
                        }}
                        <option value="0">"none: the wave finishes"</option>
                    </select>
                </label>
                <p class="answer-hint">"Or click the line's number in the editor."</p>
            }
            .into_any(),
            // One field for both typed answers: a second typed view costs wasm for no gain.
            QuestionKind::Stack | QuestionKind::Value(_) => {
                let (label, inputmode) = match q.kind {
                    QuestionKind::Value(register) => {
                        (format!("Value of r{register} in lane {}", q.lane), "decimal")
                    }
                    _ => ("Stack depth".to_string(), "numeric"),
                };
                view! {
                    <label class="answer-field">
                        <span>{label}</span>
                        <input
                            class="input"
                            type="text"
                            inputmode=inputmode
                            autocomplete="off"
                            prop:value=move || text.get()
                            on:input=move |event| text.set(target_value(&event))
                            on:keydown=move |event: web_sys::KeyboardEvent| {
                                if event.key() == "Enter" {
                                    event.prevent_default();
                                    check();
                                }
                            }
                        />
                    </label>
                }
                .into_any()
            }
        })
    };
    let reveal_class = move || {
        reveal.with(|r| match r.as_ref().and_then(|r| r.correct) {
            Some(true) => "reveal right",
            Some(false) => "reveal wrong",
            None => "reveal skipped",
        })
    };
    view! {
        <Show when=move || question.with(Option::is_some) || reveal.with(Option::is_some)>
            <section class="question-panel" aria-labelledby=ctx.labelled_by("question-heading")>
                <h3 id=ctx.id("question-heading") class="view-title">"Question"</h3>
                <p class=reveal_class aria-live="polite" hidden=move || reveal.with(Option::is_none)>
                    {move || reveal.with(|r| r.as_ref().map(|r| r.text.clone()).unwrap_or_default())}
                </p>
                <Show when=move || question.with(Option::is_some)>
                    <p class="prompt">
                        {move || question.with(|q| q.as_ref().map(|q| q.prompt.clone()).unwrap_or_default())}
                    </p>
                    {answer_field}
                    <div class="question-actions">
                        <button type="button" class="btn primary" on:click=move |_| check()>
                            "Check answer"
                        </button>
                        <button type="button" class="btn" on:click=move |_| ctx.skip_question()>
                            "Skip question"
                        </button>
                    </div>
                </Show>
                <p class="score">{score}</p>
            </section>
        </Show>
    }
}
