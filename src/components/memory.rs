//! The Memory tab: device or local memory from an address, in a chosen format.

use leptos::prelude::*;

use super::{target_value, use_ctx, HeldNote};
use wave_session::{parse_address, MemoryFormat, MemorySpaceChoice};

const ROWS: usize = 16;
const BYTES_PER_ROW: usize = 32;

#[component]
pub fn MemoryView() -> impl IntoView {
    let ctx = use_ctx();
    let space = RwSignal::new(MemorySpaceChoice::Device);
    let format = RwSignal::new(MemoryFormat::U32);
    let start = RwSignal::new(0u32);
    let address_text = RwSignal::new(String::from("0"));
    let error = RwSignal::new(None::<String>);
    let size = move || ctx.with(|s| s.memory_size(space.get()));
    let jump = move || {
        let text = address_text.get_untracked();
        match parse_address(&text, size()) {
            Ok(address) => {
                start.set(address);
                error.set(None);
            }
            Err(message) => error.set(Some(message)),
        }
    };
    // A memo: most steps write no memory, and then the table is left alone.
    let rows = Memo::new(move |previous| {
        let fmt = format.get();
        let per_row = BYTES_PER_ROW / fmt.cell_bytes();
        ctx.held_while_running(previous, |s| {
            s.memory_rows(space.get(), start.get(), ROWS, per_row, fmt)
        })
    });
    let rows = move || rows.get();
    view! {
        <div class="memory" aria-busy=move || ctx.busy()>
            <div class="form-row">
                <label class="picker">
                    <span>"Memory"</span>
                    <select
                        class="select"
                        on:change=move |event| {
                            space.set(if target_value(&event) == "local" {
                                MemorySpaceChoice::Local
                            } else {
                                MemorySpaceChoice::Device
                            });
                            start.set(0);
                        }
                    >
                        <option value="device">"Device"</option>
                        <option value="local">"Local (this workgroup)"</option>
                    </select>
                </label>
                <label class="picker">
                    <span>"Format"</span>
                    <select
                        class="select"
                        on:change=move |event| {
                            format.set(match target_value(&event).as_str() {
                                "i32" => MemoryFormat::I32,
                                "f32" => MemoryFormat::F32,
                                "bytes" => MemoryFormat::HexBytes,
                                _ => MemoryFormat::U32,
                            });
                        }
                    >
                        <option value="u32">"u32"</option>
                        <option value="i32">"i32"</option>
                        <option value="f32">"f32"</option>
                        <option value="bytes">"hex bytes"</option>
                    </select>
                </label>
                <label class="picker">
                    <span>"Jump to address"</span>
                    <input
                        class="input mono"
                        type="text"
                        spellcheck="false"
                        aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                        aria-describedby=ctx.id("memory-address-error")
                        prop:value=move || address_text.get()
                        on:input=move |event| address_text.set(target_value(&event))
                        on:keydown=move |event: web_sys::KeyboardEvent| {
                            if event.key() == "Enter" {
                                jump();
                            }
                        }
                        on:change=move |_| jump()
                    />
                </label>
                <span class="muted">{move || format!("{} bytes", size())}</span>
                <HeldNote />
            </div>
            <p id=ctx.id("memory-address-error") class="field-error">
                {move || error.get()}
            </p>
            <div class="table-scroll">
                <table class="memory-table">
                    <tbody>
                        {move || {
                            rows()
                                .into_iter()
                                .map(|row| {
                                    view! {
                                        <tr>
                                            <th scope="row">{row.address_text}</th>
                                            {row
                                                .cells
                                                .into_iter()
                                                .map(|c| view! { <td>{c}</td> })
                                                .collect_view()}
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
        </div>
    }
}
