//! Registers × lanes of the selected wave, predicates p0–p3, and the selected lane's detail.

use leptos::prelude::*;

use super::{target_value, use_ctx, HeldNote};
use crate::session::{Axis, NumberFormat, TableRow, TableWindow};

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

#[component]
pub fn Registers() -> impl IntoView {
    let ctx = use_ctx();
    let wave_width = Memo::new(move |_| ctx.with(|s| s.wave_width()));
    let width = move || wave_width.get();
    let row_count = Memo::new(move |_| ctx.with(|s| s.register_table_rows()));
    let selected = Memo::new(move |_| ctx.with(|s| s.selection().lane));
    let chars = Memo::new(move |previous| {
        ctx.settled(previous, |s| s.register_cell_chars(ctx.format.get()))
    });
    let detail =
        Memo::new(move |previous| ctx.settled(previous, |s| s.lane_detail(ctx.format.get())));
    let detail = move || detail.get();

    // Only the rows and lanes in view (and a few beyond) are in the page: a 64-lane wave with
    // many registers would otherwise put thousands of cells into every style, layout and paint.
    let scroller: NodeRef<leptos::html::Div> = NodeRef::new();
    let viewport = RwSignal::new(Viewport::default());
    let measure = move || {
        let Some(el) = scroller.get_untracked() else {
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
        if viewport.get_untracked() != now {
            viewport.set(now);
        }
    };
    // Measure once laid out, again when the columns change width, and on window resizes.
    Effect::new(move |_| {
        chars.track();
        width();
        request_animation_frame(measure);
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    // Selecting a lane (a click or the arrow keys in the lanes view, a link) brings its column
    // into the table's view: with 64 lanes most columns are scrolled out of sight. After the
    // next layout, so the widths are those of the current format; the scroll event that
    // follows moves the table's window to the lane.
    Effect::new(move |_| {
        let lane = selected.get();
        request_animation_frame(move || {
            if let Some(el) = scroller.get_untracked() {
                reveal_lane(&el, lane, wave_width.get_untracked());
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
    // Held during a run like the other heavy views (see `Ctx::settled`), unless the table was
    // scrolled meanwhile: the cells must always be those of the lanes the header shows.
    let body = Memo::new(
        move |previous: Option<&(TableWindow, NumberFormat, Vec<TableRow>)>| {
            let w = window.get();
            let format = ctx.format.get();
            if ctx.running.get() {
                if let Some(held) = previous.filter(|p| p.0 == w && p.1 == format) {
                    return held.clone();
                }
            }
            let lanes = w.columns.start as u32..w.columns.end as u32;
            let rows = ctx.with(|s| s.register_window(format, w.rows.clone(), lanes));
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
        <section class="view registers-view" aria-labelledby="registers-heading" aria-busy=move || ctx.busy()>
            <h3 id="registers-heading" class="view-title">
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
                    <tbody>
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
