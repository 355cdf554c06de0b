//! The lanes of the selected wave: active or not (colour and pattern), and why not.

use leptos::prelude::*;

use super::{use_ctx, HeldNote};

/// The class attribute of a lane, by state. Every combination is a `'static` string, interned
/// once (see [`intern_lane_classes`]) so that setting it passes no text from wasm to the page.
pub fn lane_class(active: bool, changed: bool, selected: bool) -> &'static str {
    LANE_CLASSES[usize::from(active) | usize::from(changed) << 1 | usize::from(selected) << 2]
}

/// Indexed by `active | changed << 1 | selected << 2`.
const LANE_CLASSES: [&str; 8] = [
    "lane inactive",
    "lane active",
    "lane inactive changed",
    "lane active changed",
    "lane inactive selected",
    "lane active selected",
    "lane inactive changed selected",
    "lane active changed selected",
];

/// Makes the lane class strings JavaScript strings once, so a step that flips 64 lanes does not
/// decode 64 copies of them (wasm-bindgen's `enable-interning`).
pub fn intern_lane_classes() {
    for class in LANE_CLASSES {
        wasm_bindgen::intern(class);
    }
}

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
    // The lane under the mouse pointer: only it carries a `title` (the reason as a tooltip).
    // A title on every lane was a third attribute to rewrite on each of the 64 lanes a
    // divergent step flips, for a tooltip only the hovered lane can show; the reason is in
    // every lane's accessible name anyway.
    let hovered = RwSignal::new(None::<u32>);
    let on_pointerover = move |event: web_sys::PointerEvent| {
        let lane = event
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|t| t.closest("[data-lane]").ok().flatten())
            .and_then(|cell| cell.get_attribute("data-lane"))
            .and_then(|lane| lane.parse::<u32>().ok());
        if hovered.get_untracked() != lane {
            hovered.set(lane);
        }
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
                on:pointerover=on_pointerover
                on:pointerleave=move |_| hovered.set(None)
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
                        view! {
                            <button
                                type="button"
                                // One class attribute, set only when it changes: flipping
                                // a lane is one DOM call instead of three class-list calls.
                                class=move || {
                                    this_lane.with(|l| {
                                        lane_class(
                                            l.as_ref().is_some_and(|l| l.active),
                                            l.as_ref().is_some_and(|l| l.changed),
                                            selected() == lane,
                                        )
                                    })
                                }
                                data-lane=lane
                                tabindex=move || if selected() == lane { "0" } else { "-1" }
                                aria-label=move || {
                                    this_lane.with(|l| {
                                        l.as_ref().map(|l| l.aria_label.clone()).unwrap_or_default()
                                    })
                                }
                                title=move || {
                                    (hovered.get() == Some(lane))
                                        .then(|| {
                                            this_lane.with(|l| {
                                                l.as_ref().map(|l| {
                                                    l.reason.clone().unwrap_or_else(|| "active".to_string())
                                                })
                                            })
                                        })
                                        .flatten()
                                }
                                on:click=move |_| {
                                    ctx.act(|s| s.select_lane(lane));
                                }
                            >
                                // A dot drawn by the stylesheet (filled when active): a class
                                // change repaints it without laying the lane out again.
                                <span class="lane-glyph" aria-hidden="true"></span>
                                <span class="lane-number" aria-hidden="true">{lane}</span>
                                // The change bar (shown by the `changed` class).
                                <span class="lane-bar" aria-hidden="true"></span>
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

#[cfg(test)]
mod tests {
    use super::lane_class;

    #[test]
    fn a_lane_class_names_each_state_once() {
        assert_eq!(lane_class(true, false, false), "lane active");
        assert_eq!(lane_class(false, false, false), "lane inactive");
        assert_eq!(lane_class(false, true, false), "lane inactive changed");
        assert_eq!(lane_class(true, true, true), "lane active changed selected");
        for bits in 0..8 {
            let (active, changed, selected) = (bits & 1 == 1, bits & 2 == 2, bits & 4 == 4);
            let classes: Vec<&str> = lane_class(active, changed, selected).split(' ').collect();
            assert_eq!(classes[0], "lane");
            assert_eq!(classes.contains(&"active"), active, "{classes:?}");
            assert_eq!(classes.contains(&"inactive"), !active, "{classes:?}");
            assert_eq!(classes.contains(&"changed"), changed, "{classes:?}");
            assert_eq!(classes.contains(&"selected"), selected, "{classes:?}");
        }
    }
}
