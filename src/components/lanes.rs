//! The lanes of the selected wave: active or not (colour and pattern), and why not.

use leptos::prelude::*;

use super::{use_ctx, HeldNote};

#[component]
pub fn Lanes() -> impl IntoView {
    let ctx = use_ctx();
    let lanes_memo = Memo::new(move |previous| ctx.settled(previous, |s| s.lanes()));
    let selected = Memo::new(move |_| ctx.with(|s| s.selection().lane));
    let selected = move || selected.get();
    let active_count = move || {
        lanes_memo.with(|all| {
            let active = all.iter().filter(|l| l.active).count();
            format!("{active} of {} active", all.len())
        })
    };
    let group: NodeRef<leptos::html::Div> = NodeRef::new();
    // Arrow keys move the selected lane (one tab stop for the whole group).
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        let count = lanes_memo.with(Vec::len) as u32;
        if count == 0 {
            return;
        }
        let lane = selected();
        let next = match event.key().as_str() {
            "ArrowRight" | "ArrowDown" => (lane + 1).min(count - 1),
            "ArrowLeft" | "ArrowUp" => lane.saturating_sub(1),
            "Home" => 0,
            "End" => count - 1,
            _ => return,
        };
        event.prevent_default();
        ctx.act(|s| s.select_lane(next));
        if let Some(group) = group.get_untracked() {
            if let Ok(Some(cell)) = group.query_selector(&format!("[data-lane='{next}']")) {
                if let Ok(cell) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(cell) {
                    let _ = cell.focus();
                }
            }
        }
    };
    view! {
        <section class="view lanes-view" aria-labelledby="lanes-heading" aria-busy=move || ctx.busy()>
            <h3 id="lanes-heading" class="view-title">
                "Lanes" <span class="view-note">{active_count}</span> <HeldNote />
            </h3>
            <div
                class="lanes"
                role="group"
                aria-label="Lanes"
                node_ref=group
                on:keydown=on_keydown
            >
                <For
                    each=move || lanes_memo.with(|all| all.iter().map(|l| l.lane).collect::<Vec<_>>())
                    key=|lane| *lane
                    let:lane
                >
                    {
                        // One memo per lane: a step that flips a few lanes updates only those.
                        let this_lane = Memo::new(move |_| {
                            lanes_memo.with(|all| all.get(lane as usize).cloned())
                        });
                        let view_of = move || this_lane.get();
                        let active = move || this_lane.with(|l| l.as_ref().is_some_and(|l| l.active));
                        view! {
                            <button
                                type="button"
                                class="lane"
                                class:active=active
                                class:inactive=move || !active()
                                class:selected=move || selected() == lane
                                class:changed=move || this_lane.with(|l| l.as_ref().is_some_and(|l| l.changed))
                                data-lane=lane
                                tabindex=move || if selected() == lane { "0" } else { "-1" }
                                aria-label=move || view_of().map(|l| l.aria_label).unwrap_or_default()
                                title=move || {
                                    view_of()
                                        .map(|l| {
                                            l.reason.unwrap_or_else(|| "active".to_string())
                                        })
                                        .unwrap_or_default()
                                }
                                on:click=move |_| {
                                    ctx.act(|s| s.select_lane(lane));
                                }
                            >
                                // A dot drawn by the stylesheet (filled when active): a class
                                // change repaints it without laying the lane out again.
                                <span class="lane-glyph" aria-hidden="true"></span>
                                <span class="lane-number" aria-hidden="true">{lane}</span>
                            </button>
                        }
                    }
                </For>
            </div>
            <p class="lane-reason" aria-hidden="true">
                {move || {
                    let lane = selected();
                    lanes_memo
                        .with(|all| {
                            all.iter()
                                .find(|l| l.lane == lane)
                                .map(|l| match &l.reason {
                                    Some(reason) => format!("Lane {lane}: {reason}"),
                                    None => format!("Lane {lane}: active"),
                                })
                        })
                        .unwrap_or_default()
                }}
            </p>
        </section>
    }
}
