//! Registers × lanes of the selected wave, predicates p0–p3, and the selected lane's detail.

use leptos::prelude::*;

use super::{target_value, use_ctx, HeldNote};
use wasm_bindgen::JsCast;

use wave_session::{Axis, NumberFormat, Rect, TableRow, TableWindow};

fn format_name(format: NumberFormat) -> &'static str {
    match format {
        NumberFormat::I32 => "i32",
        NumberFormat::U32 => "u32",
        NumberFormat::Hex => "hex",
        NumberFormat::F32 => "f32",
    }
}

fn parse_format(text: &str) -> Option<NumberFormat> {
    Some(match text {
        "i32" => NumberFormat::I32,
        "u32" => NumberFormat::U32,
        "hex" => NumberFormat::Hex,
        "f32" => NumberFormat::F32,
        _ => return None,
    })
}

/// Height of a table row in CSS pixels (the stylesheet's rows are exactly this tall, so the
/// visible rows follow from the scroll offset).
const ROW_PX: f64 = 20.0;
/// Column width used until the page has laid out the table and it can be measured.
const DEFAULT_COLUMN_PX: f64 = 32.0;

/// What the register table's scroll container shows, in CSS pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Viewport {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    /// Width of one lane column, measured.
    column: f64,
}

/// Width of the first element matching `selector` in `scroller`, if it is laid out.
fn rendered_width(scroller: &web_sys::Element, selector: &str) -> Option<f64> {
    scroller
        .query_selector(selector)
        .ok()
        .flatten()
        .map(|el| el.get_bounding_client_rect().width())
        .filter(|w| *w > 0.0)
}

/// Scrolls the register table horizontally, as little as needed, so that lane `lane` (of
/// `lanes`) is in view beside the sticky register column. Nothing while the table is hidden.
fn reveal_lane(scroller: &web_sys::HtmlDivElement, lane: u32, lanes: u32) {
    let (Some(head), Some(column)) = (
        rendered_width(scroller, "thead th.head-cell"),
        rendered_width(scroller, "thead th[data-lane]"),
    ) else {
        return;
    };
    let axis = Axis {
        count: lanes as usize,
        item: column,
        scroll: f64::from(scroller.scroll_left()),
        viewport: f64::from(scroller.client_width()),
    };
    if let Some(left) = axis.scroll_to_show(lane as usize, head) {
        // Whole pixels, rounded away from the lane so it is never cut by a fraction.
        let left = if left > axis.scroll {
            left.ceil()
        } else {
            left.floor()
        };
        scroller.set_scroll_left(left as i32);
    }
}

fn rect(dom: &web_sys::DomRect) -> Rect {
    Rect {
        left: dom.left(),
        top: dom.top(),
        right: dom.right(),
        bottom: dom.bottom(),
    }
}

/// The boxes around `el` that clip what overflows them (the machine pane's scroll container
/// above all), innermost first. The page's structure around the table never changes, so this
/// is asked once.
fn clipping_ancestors(el: &web_sys::Element) -> Vec<web_sys::Element> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let mut clips = Vec::new();
    let mut ancestor = el.parent_element();
    while let Some(a) = ancestor {
        let clips_overflow = window
            .get_computed_style(&a)
            .ok()
            .flatten()
            .is_some_and(|style| {
                ["overflow-x", "overflow-y"].iter().any(|p| {
                    style
                        .get_property_value(p)
                        .is_ok_and(|v| !v.is_empty() && v != "visible")
                })
            });
        if clips_overflow {
            clips.push(a.clone());
        }
        ancestor = a.parent_element();
    }
    clips
}

/// Whether any of `el` is on screen: inside the window and every box in `clips`. Reads the
/// layout, so it is asked in an animation frame, once the step's other changes are in the page.
fn on_screen(el: &web_sys::Element, clips: &[web_sys::Element]) -> bool {
    let Some(window) = web_sys::window() else {
        return true;
    };
    let size = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64());
    let (Some(width), Some(height)) = (size(window.inner_width()), size(window.inner_height()))
    else {
        return true;
    };
    let mut boxes = vec![Rect {
        left: 0.0,
        top: 0.0,
        right: width,
        bottom: height,
    }];
    boxes.extend(clips.iter().map(|c| rect(&c.get_bounding_client_rect())));
    rect(&el.get_bounding_client_rect()).seen_through(&boxes)
}

#[component]
pub fn Registers() -> impl IntoView {
    let ctx = use_ctx();
    let wave_width = Memo::new(move |_| ctx.with(|s| s.wave_width()));
    let width = move || wave_width.get();
    let row_count = Memo::new(move |_| ctx.with(|s| s.register_table_rows()));
    let selected = Memo::new(move |_| ctx.with(|s| s.selection().lane));
    let chars = Memo::new(move |previous| {
        ctx.held_while_running(previous, |s| s.register_cell_chars(ctx.format.get()))
    });
    let detail = Memo::new(move |previous| {
        ctx.held_while_running(previous, |s| s.lane_detail(ctx.format.get()))
    });
    let detail = move || detail.get();

    // Only the rows and lanes in view (and a few beyond) are in the page: a 64-lane wave with
    // many registers would otherwise put thousands of cells into every style, layout and paint.
    let scroller: NodeRef<leptos::html::Div> = NodeRef::new();
    // The rows, whose cells change as the machine runs (the header row shows lane numbers only).
    let rows_body: NodeRef<leptos::html::Tbody> = NodeRef::new();
    let viewport = RwSignal::new(Viewport::default());
    let measure = move || {
        // A frame or a scroll event may come after the view is gone.
        let Some(el) = scroller.try_get_untracked().flatten() else {
            return;
        };
        let column = rendered_width(&el, "thead th[data-lane]").unwrap_or(DEFAULT_COLUMN_PX);
        let now = Viewport {
            left: f64::from(el.scroll_left()),
            top: f64::from(el.scroll_top()),
            width: f64::from(el.client_width()),
            height: f64::from(el.client_height()),
            column,
        };
        if viewport.try_get_untracked().is_some_and(|v| v != now) {
            viewport.set(now);
        }
    };
    // Measure once laid out, again when the columns change width, and on window resizes.
    Effect::new(move |_| {
        chars.track();
        width();
        request_animation_frame(measure);
    });

    // Off screen, the table leaves its cells as they are. In a shorter window (or with the
    // divergence stack deep) the table is below the machine pane's view, yet updating its cells
    // costs about 1 ms of paint and 0.5 ms of layout a step: the browser paints its scroll
    // container whole, seen or not. So while the table was on screen when last looked at, a
    // change of the session updates the cells at once; once it was seen to be off
    // screen (by the check below or the IntersectionObserver), a change only marks the cells
    // `stale`, and the next animation frame, once the step's other changes (a stack frame that
    // moves the table) are in the page, looks whether any of the table's rows is on screen (its
    // header row alone does not count: it shows lane numbers, which steps do not change). If so,
    // the cells catch up in that frame's microtasks, before it is drawn; if not, they wait until
    // a scroll, a resize or any other change of the layout brings the rows into view, and then
    // show the current state (`changed` is the latest step's, as if they had followed every
    // step). Until then the table says it is not up to date (`aria-busy`), for screen readers,
    // which read off-screen content. Looking at every step instead costs more than it saves
    // while the table is in view: the look forces a layout, and the cells then need a second.
    //
    // The handlers below may run after the view is gone (a frame or an observer's callback
    // already queued): they read its state with `try_`, and do nothing then.
    let stale = StoredValue::new(false);
    let check_pending = StoredValue::new(false);
    let catch_up = Trigger::new();
    let deferred = RwSignal::new(false);
    let clips = StoredValue::new_local(None::<Vec<web_sys::Element>>);
    // Whether the table was on screen when last looked at (by the check or the observer).
    let was_seen = StoredValue::new(true);
    let refresh = move || {
        stale.set_value(false);
        catch_up.notify();
        if deferred.try_get_untracked() == Some(true) {
            deferred.set(false);
        }
    };
    let check = move || {
        check_pending.try_set_value(false);
        if stale.try_get_value() != Some(true) {
            return;
        }
        let table = scroller.try_get_untracked().flatten();
        let rows = rows_body.try_get_untracked().flatten();
        match (table, rows) {
            // Hidden (no wave) or laid out as nothing: there are no cells to save.
            (Some(table), Some(rows))
                if table.client_height() > 0
                    && !clips
                        .try_update_value(|c| {
                            let c = c.get_or_insert_with(|| clipping_ancestors(&rows));
                            on_screen(&rows, c)
                        })
                        .unwrap_or(true) =>
            {
                was_seen.set_value(false);
                if deferred.try_get_untracked() == Some(false) {
                    deferred.set(true);
                }
            }
            _ => {
                was_seen.set_value(true);
                refresh();
            }
        }
    };
    let check_soon = move || {
        if stale.try_get_value() == Some(true) && check_pending.try_get_value() == Some(false) {
            check_pending.set_value(true);
            request_animation_frame(check);
        }
    };
    Effect::new(move |_| {
        ctx.track();
        // During a run the cells hold still anyway (`body` below) and catch up when it stops.
        if !ctx.running.get() {
            stale.set_value(true);
            if was_seen.get_value() {
                refresh();
            } else {
                check_soon();
            }
        }
    });
    // Scrolling anything (the machine pane, the page) may bring the table into view; scroll
    // events come before the frame is drawn, so the cells catch up in that frame. Scroll events
    // do not bubble: the listener is on the document's capture phase.
    let on_scroll = wasm_bindgen::closure::Closure::<dyn Fn()>::new(check_soon).into_js_value();
    let document = document();
    let _ = document.add_event_listener_with_callback_and_bool(
        "scroll",
        on_scroll.unchecked_ref(),
        true,
    );
    let listeners =
        StoredValue::new_local((document, on_scroll, None::<web_sys::IntersectionObserver>));
    let resize = window_event_listener(leptos::ev::resize, move |_| {
        measure();
        check_soon();
    });
    on_cleanup(move || {
        resize.remove();
        listeners.try_with_value(|(document, on_scroll, observer)| {
            let _ = document.remove_event_listener_with_callback_and_bool(
                "scroll",
                on_scroll.unchecked_ref(),
                true,
            );
            if let Some(observer) = observer {
                observer.disconnect();
            }
        });
    });
    // Anything else that brings the table into view (a stack frame leaving after its
    // animation, the page's layout changing) is caught by an IntersectionObserver, a frame late.
    Effect::new(move |_| {
        let Some(el) = rows_body.get() else {
            return;
        };
        let seen = wasm_bindgen::closure::Closure::<dyn Fn(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                let visible = entries.iter().any(|e| {
                    e.unchecked_into::<web_sys::IntersectionObserverEntry>()
                        .is_intersecting()
                });
                was_seen.try_set_value(visible);
                if visible && stale.try_get_value() == Some(true) {
                    refresh();
                }
            },
        )
        .into_js_value();
        if let Ok(observer) = web_sys::IntersectionObserver::new(seen.unchecked_ref()) {
            observer.observe(&el);
            listeners.update_value(|(_, _, old)| {
                if let Some(old) = old.replace(observer) {
                    old.disconnect();
                }
            });
        }
    });
    // Selecting a lane (a click or the arrow keys in the lanes view, a link) brings its column
    // into the table's view: with 64 lanes most columns are scrolled out of sight. After the
    // next layout, so the widths are those of the current format; the scroll event that
    // follows moves the table's window to the lane.
    Effect::new(move |_| {
        let lane = selected.get();
        // The table may be gone by the frame (compare mode opened): nothing to scroll.
        request_animation_frame(move || {
            if let (Some(Some(el)), Some(lanes)) =
                (scroller.try_get_untracked(), wave_width.try_get_untracked())
            {
                reveal_lane(&el, lane, lanes);
            }
        });
    });
    let window = Memo::new(move |_| {
        let v = viewport.get();
        TableWindow::new(
            Axis {
                count: row_count.get(),
                item: ROW_PX,
                scroll: v.top,
                viewport: v.height,
            },
            Axis {
                count: width() as usize,
                item: if v.column > 0.0 {
                    v.column
                } else {
                    DEFAULT_COLUMN_PX
                },
                scroll: v.left,
                viewport: v.width,
            },
        )
    });
    let lanes = move || {
        let w = window.get();
        w.columns.start as u32..w.columns.end as u32
    };
    // Held during a run like the other heavy views (see `Ctx::held_while_running`), unless the table was
    // scrolled meanwhile: the cells must always be those of the lanes the header shows.
    // The session is read untracked: a step reaches the cells through `catch_up` (above).
    let body = Memo::new(
        move |previous: Option<&(TableWindow, NumberFormat, Vec<TableRow>)>| {
            let w = window.get();
            let format = ctx.format.get();
            catch_up.track();
            if ctx.running.get() {
                if let Some(held) = previous.filter(|p| p.0 == w && p.1 == format) {
                    return held.clone();
                }
            }
            let lanes = w.columns.start as u32..w.columns.end as u32;
            let rows = ctx.peek(|s| s.register_window(format, w.rows.clone(), lanes));
            (w, format, rows)
        },
    );
    // Lanes left and right of the window, rows above and below it: the spacers' sizes.
    let before_lanes = move || window.with(|w| w.columns.start);
    let after_lanes = move || window.with(|w| (width() as usize).saturating_sub(w.columns.end));
    let above = move || window.with(|w| w.rows.start);
    let below = move || window.with(|w| row_count.get().saturating_sub(w.rows.end));
    let span = move || window.with(|w| w.columns.len() + 3);

    view! {
        <section class="view registers-view" aria-labelledby=ctx.labelled_by("registers-heading") aria-busy=move || ctx.busy()>
            <h3 id=ctx.id("registers-heading") class="view-title">
                "Registers"
                <select
                    class="select small"
                    aria-label="Number format"
                    prop:value=move || format_name(ctx.format.get())
                    on:change=move |event| {
                        if let Some(format) = parse_format(&target_value(&event)) {
                            ctx.format.set(format);
                        }
                    }
                >
                    {[NumberFormat::I32, NumberFormat::U32, NumberFormat::Hex, NumberFormat::F32]
                        .into_iter()
                        .map(|f| view! { <option value=format_name(f)>{format_name(f)}</option> })
                        .collect_view()}
                </select>
                <HeldNote />
            </h3>
            <Show when=move || { width() == 0 }>
                <p class="empty-note">"No wave to show until the kernel and its launch are valid."</p>
            </Show>
            <div
                class="table-scroll registers-scroll"
                hidden=move || width() == 0
                node_ref=scroller
                on:scroll=move |_| measure()
            >
                <table
                    class="registers"
                    aria-busy=move || deferred.get().then_some("true")
                    aria-rowcount=move || row_count.get() + 1
                    aria-colcount=move || width() + 1
                    style:--cell-chars=move || chars.get().to_string()
                    style:--lanes=move || width().to_string()
                >
                    <colgroup>
                        <col class="head-col" />
                        <col class="gap-col" style:--gap=move || before_lanes().to_string() />
                        <For each=lanes key=|lane| *lane let:lane>
                            <col class="lane-col" class:selected=move || selected.get() == lane />
                        </For>
                        <col class="gap-col" style:--gap=move || after_lanes().to_string() />
                    </colgroup>
                    <thead>
                        <tr aria-rowindex="1">
                            <th scope="col" class="head-cell" aria-colindex="1">"reg"</th>
                            <th class="gap" aria-hidden="true"></th>
                            <For each=lanes key=|lane| *lane let:lane>
                                <th
                                    scope="col"
                                    data-lane=lane
                                    aria-colindex=lane + 2
                                    class:selected=move || selected.get() == lane
                                >
                                    {lane}
                                </th>
                            </For>
                            <th class="gap" aria-hidden="true"></th>
                        </tr>
                    </thead>
                    <tbody node_ref=rows_body>
                        <tr class="gap-row" aria-hidden="true" hidden=move || above() == 0>
                            <td colspan=span style:--rows=move || above().to_string()></td>
                        </tr>
                        // Rows keep their cells while stepping and scrolling: only texts,
                        // classes and (when the window moves) the lanes they hold change.
                        <For
                            each=move || window.with(|w| w.rows.clone().collect::<Vec<_>>())
                            key=|index| *index
                            let:index
                        >
                            {
                                let row = Memo::new(move |_| {
                                    body.with(|(_, _, rows)| rows.iter().find(|r| r.index == index).cloned())
                                });
                                view! {
                                    <tr
                                        aria-rowindex=index + 2
                                        class:predicate-row=move || row.with(|r| r.as_ref().is_some_and(|r| r.predicate))
                                    >
                                        <th scope="row" class="head-cell" aria-colindex="1">
                                            {move || row.with(|r| r.as_ref().map(|r| r.name.clone()))}
                                        </th>
                                        <td class="gap" aria-hidden="true"></td>
                                        {move || {
                                            row.get()
                                                .map(|row| {
                                                    row.cells
                                                        .into_iter()
                                                        .map(|cell| {
                                                            view! {
                                                                <td
                                                                    aria-colindex=cell.lane + 2
                                                                    class:changed=cell.changed
                                                                    class:on=cell.on
                                                                >
                                                                    {cell.text}
                                                                </td>
                                                            }
                                                        })
                                                        .collect_view()
                                                })
                                        }}
                                        <td class="gap" aria-hidden="true"></td>
                                    </tr>
                                }
                            }
                        </For>
                        <tr class="gap-row" aria-hidden="true" hidden=move || below() == 0>
                            <td colspan=span style:--rows=move || below().to_string()></td>
                        </tr>
                    </tbody>
                </table>
            </div>
            {move || {
                detail()
                    .map(|d| {
                        view! {
                            <div class="lane-detail" aria-label="Selected lane">
                                <span class="detail-title">{format!("Lane {}", d.lane)}</span>
                                {d
                                    .registers
                                    .into_iter()
                                    .map(|(name, value, changed)| {
                                        view! {
                                            <span class="detail-item" class:changed=changed>
                                                <span class="detail-name">{name}</span>
                                                " = "
                                                {value}
                                            </span>
                                        }
                                    })
                                    .collect_view()}
                                {d
                                    .predicates
                                    .into_iter()
                                    .enumerate()
                                    .map(|(p, on)| {
                                        view! {
                                            <span class="detail-item">
                                                <span class="detail-name">{format!("p{p}")}</span>
                                                {if on { " = true" } else { " = false" }}
                                            </span>
                                        }
                                    })
                                    .collect_view()}
                            </div>
                        }
                    })
            }}
        </section>
    }
}
