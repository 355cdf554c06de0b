//! The divergence stack of the selected wave, innermost frame first.

use leptos::prelude::*;

use super::{use_ctx, HeldNote, LaneStrip};

#[component]
pub fn Stack() -> impl IntoView {
    let ctx = use_ctx();
    let frames_memo = Memo::new(move |previous| ctx.settled(previous, |s| s.stack()));
    let frames = move || frames_memo.get();
    view! {
        <section class="view stack-view" aria-labelledby="stack-heading" aria-busy=move || ctx.busy()>
            <h3 id="stack-heading" class="view-title">
                "Divergence stack"
                <span class="view-note">{move || format!("depth {}", frames().len())}</span>
                <HeldNote />
            </h3>
            <ol class="stack" role="list" aria-label="Divergence stack">
                // Keyed by position from the bottom, line and kind: a frame keeps its element
                // (and does not animate again) while its masks change.
                <For
                    each=move || {
                        let all = frames();
                        let depth = all.len();
                        all.into_iter()
                            .enumerate()
                            .map(move |(i, f)| (depth - i, f.line, f.kind, f.reconverge_line))
                            .collect::<Vec<_>>()
                    }
                    key=|key| *key
                    let:key
                >
                    {
                        let (position, line, kind, reconverge) = key;
                        let frame = move || {
                            frames_memo
                                .with(|all| {
                                    all.len().checked_sub(position).and_then(|i| all.get(i).cloned())
                                })
                        };
                        view! {
                            <li role="listitem" class=format!("frame frame-{kind}")>
                                <span class="frame-kind">{kind}</span>
                                <span class="frame-where">
                                    {format!(" line {line}")}
                                    {move || {
                                        frame()
                                            .and_then(|f| f.iterations)
                                            .map(|i| format!(", iteration {}", i + 1))
                                    }}
                                </span>
                                <span class="frame-reconverge">
                                    {format!(" · reconverges at line {reconverge}")}
                                </span>
                                <div class="masks">
                                    {move || {
                                        frame()
                                            .map(|f| f.masks)
                                            .unwrap_or_default()
                                            .into_iter()
                                            .map(|m| {
                                                view! {
                                                    <div class=format!("mask mask-{}", m.name)>
                                                        <span class="mask-name">{m.name}</span>
                                                        <LaneStrip lanes=m.lanes />
                                                        <span class="mask-text">{m.text}</span>
                                                    </div>
                                                }
                                            })
                                            .collect_view()
                                    }}
                                </div>
                            </li>
                        }
                    }
                </For>
            </ol>
            // Frames the last step popped fade out below the list (not list items: they are gone).
            <div class="popped" aria-hidden="true">
                {move || {
                    ctx.with(|s| s.last_events())
                        .into_iter()
                        .filter(|e| e.kind.starts_with("pop-"))
                        .map(|e| view! { <div class="frame frame-popped">{e.text}</div> })
                        .collect_view()
                }}
            </div>
            <Show when=move || frames().is_empty() && ctx.with(|s| s.wave_width() > 0)>
                <p class="empty-note">"No frame: every present lane runs together."</p>
            </Show>
        </section>
    }
}
