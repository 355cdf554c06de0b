//! Registers × lanes of the selected wave, predicates p0–p3, and the selected lane's detail.

use leptos::prelude::*;

use super::{target_value, use_ctx, HeldNote};
use crate::session::NumberFormat;

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

#[component]
pub fn Registers() -> impl IntoView {
    let ctx = use_ctx();
    let rows = Memo::new(move |previous| ctx.settled(previous, |s| s.registers(ctx.format.get())));
    let predicates = Memo::new(move |previous| ctx.settled(previous, |s| s.predicates()));
    let width = Memo::new(move |_| ctx.with(|s| s.wave_width()));
    let width = move || width.get();
    let selected = Memo::new(move |_| ctx.with(|s| s.selection().lane));
    let detail =
        Memo::new(move |previous| ctx.settled(previous, |s| s.lane_detail(ctx.format.get())));
    let detail = move || detail.get();
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
            <div class="table-scroll" hidden=move || width() == 0>
                <table class="registers">
                    <thead>
                        <tr>
                            <th scope="col">"reg"</th>
                            {move || {
                                let lane = selected.get();
                                (0..width())
                                    .map(|l| {
                                        view! {
                                            <th scope="col" class:selected=l == lane>
                                                {l}
                                            </th>
                                        }
                                    })
                                    .collect_view()
                            }}
                        </tr>
                    </thead>
                    <tbody>
                        // Rows keep their cells while stepping; only the texts and classes change.
                        <For
                            each=move || {
                                let w = width();
                                rows.with(|rows| rows.iter().map(|r| (r.register, w)).collect::<Vec<_>>())
                            }
                            key=|key| *key
                            let:key
                        >
                            {
                                let (register, _) = key;
                                // Only rows whose values (or change marks) moved re-render.
                                let row = Memo::new(move |_| {
                                    rows.with(|rows| {
                                        rows.binary_search_by_key(&register, |r| r.register)
                                            .ok()
                                            .map(|i| rows[i].clone())
                                    })
                                });
                                view! {
                                    <tr>
                                        <th scope="row">{format!("r{register}")}</th>
                                        {move || {
                                            row.get()
                                                .map(|row| {
                                                    row.values
                                                        .into_iter()
                                                        .zip(row.changed)
                                                        .enumerate()
                                                        .map(|(l, (value, changed))| {
                                                            view! {
                                                                <td
                                                                    class:changed=changed
                                                                    class:selected=move || {
                                                                        selected.get() == l as u32
                                                                    }
                                                                >
                                                                    {value}
                                                                </td>
                                                            }
                                                        })
                                                        .collect_view()
                                                })
                                        }}
                                    </tr>
                                }
                            }
                        </For>
                        <For
                            each=move || {
                                let w = width();
                                (0..4usize).map(|p| (p, w)).collect::<Vec<_>>()
                            }
                            key=|key| *key
                            let:key
                        >
                            {
                                let (p, _) = key;
                                let row = Memo::new(move |_| predicates.with(|rows| rows.get(p).cloned()));
                                view! {
                                    <tr class="predicate-row">
                                        <th scope="row">{format!("p{p}")}</th>
                                        {move || {
                                            row.get()
                                                .map(|row| {
                                                    row.lanes
                                                        .into_iter()
                                                        .zip(row.changed)
                                                        .enumerate()
                                                        .map(|(l, (on, changed))| {
                                                            view! {
                                                                <td
                                                                    class:changed=changed
                                                                    class:on=on
                                                                    class:selected=move || {
                                                                        selected.get() == l as u32
                                                                    }
                                                                >
                                                                    {if on { "T" } else { "·" }}
                                                                </td>
                                                            }
                                                        })
                                                        .collect_view()
                                                })
                                        }}
                                    </tr>
                                }
                            }
                        </For>
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
