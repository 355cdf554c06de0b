//! The Launch configuration tab: the form's fields, bound to `ConfigForm`, with the session's
//! inline messages. Nothing runs while a field is invalid.

use leptos::prelude::*;

use super::{target_value, use_ctx, Ctx};
use wave_session::{ConfigForm, ElemType, Field, FormErrors, RegionField, RegionForm, RegionKind};

fn update_form(ctx: Ctx, change: impl FnOnce(&mut ConfigForm)) {
    ctx.commit_source();
    ctx.stop();
    ctx.act(|s| {
        let mut form = s.form().clone();
        change(&mut form);
        s.set_form(form);
    });
    ctx.run_time_ms.set(None);
    ctx.autosave();
}

/// The form and its messages as memos, so the fields update when the form changes rather than
/// on every step.
#[derive(Clone, Copy)]
struct FormState {
    form: Memo<ConfigForm>,
    errors: Memo<FormErrors>,
}

fn use_form() -> FormState {
    expect_context::<FormState>()
}

fn error_of(state: FormState, field: Field) -> Option<String> {
    state.errors.with(|e| e.get(field).map(str::to_string))
}

/// A labelled text input bound to one form field, its message below.
#[component]
fn TextField(
    label: &'static str,
    id: &'static str,
    field: Field,
    get: fn(&ConfigForm) -> String,
    set: fn(&mut ConfigForm, String),
    #[prop(optional)] hint: &'static str,
) -> impl IntoView {
    let ctx = use_ctx();
    let state = use_form();
    let error = move || error_of(state, field);
    let id = ctx.id(id);
    let error_id = format!("{id}-error");
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                class="input mono"
                type="text"
                spellcheck="false"
                placeholder=hint
                aria-invalid=move || if error().is_some() { "true" } else { "false" }
                aria-describedby=error_id.clone()
                prop:value=move || state.form.with(get)
                on:input=move |event| {
                    let value = target_value(&event);
                    update_form(ctx, |f| set(f, value));
                }
            />
            <span id=error_id class="field-error">
                {error}
            </span>
        </div>
    }
}

/// One region's text field.
#[component]
fn RegionInput(
    index: usize,
    label: &'static str,
    which: RegionField,
    get: fn(&RegionForm) -> String,
    set: fn(&mut RegionForm, String),
) -> impl IntoView {
    let ctx = use_ctx();
    let state = use_form();
    let error = move || error_of(state, Field::Region(index, which));
    view! {
        <label class="region-field">
            <span>{label}</span>
            <input
                class="input mono"
                type="text"
                spellcheck="false"
                aria-invalid=move || if error().is_some() { "true" } else { "false" }
                prop:value=move || {
                    state.form.with(|f| f.regions.get(index).map(get).unwrap_or_default())
                }
                on:input=move |event| {
                    let value = target_value(&event);
                    update_form(
                        ctx,
                        |f| {
                            if let Some(r) = f.regions.get_mut(index) {
                                set(r, value);
                            }
                        },
                    );
                }
            />
            <span class="field-error">{error}</span>
        </label>
    }
}

#[component]
fn Region(index: usize) -> impl IntoView {
    let ctx = use_ctx();
    let state = use_form();
    let region = move || state.form.with(|f| f.regions.get(index).cloned());
    let kind = move || region().map_or(RegionKind::Zeros, |r| r.kind);
    view! {
        <li class="region">
            <div class="region-head">
                <span class="region-title">{format!("Region {}", index + 1)}</span>
                <label class="region-field">
                    <span>"Kind"</span>
                    <select
                        class="select"
                        prop:value=move || kind().name()
                        on:change=move |event| {
                            let kind = RegionKind::from_name(&target_value(&event))
                                .unwrap_or(RegionKind::Zeros);
                            update_form(
                                ctx,
                                |f| {
                                    if let Some(r) = f.regions.get_mut(index) {
                                        r.kind = kind;
                                    }
                                },
                            );
                        }
                    >
                        {RegionKind::ALL
                            .into_iter()
                            .map(|k| view! { <option value=k.name()>{k.name()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <label class="region-field">
                    <span>"Element type"</span>
                    <select
                        class="select"
                        prop:value=move || region().map_or("u32", |r| r.elem.name())
                        on:change=move |event| {
                            let elem = ElemType::from_name(&target_value(&event))
                                .unwrap_or(ElemType::U32);
                            update_form(
                                ctx,
                                |f| {
                                    if let Some(r) = f.regions.get_mut(index) {
                                        r.elem = elem;
                                    }
                                },
                            );
                        }
                    >
                        {ElemType::ALL
                            .into_iter()
                            .map(|e| view! { <option value=e.name()>{e.name()}</option> })
                            .collect_view()}
                    </select>
                </label>
                <button
                    type="button"
                    class="btn small"
                    aria-label=format!("Remove region {}", index + 1)
                    on:click=move |_| {
                        update_form(
                            ctx,
                            |f| {
                                if index < f.regions.len() {
                                    f.regions.remove(index);
                                }
                            },
                        )
                    }
                >
                    "Remove"
                </button>
            </div>
            <div class="region-fields">
                <RegionInput
                    index
                    label="Offset"
                    which=RegionField::Offset
                    get=|r| r.offset.clone()
                    set=|r, v| r.offset = v
                />
                <Show when=move || kind() != RegionKind::Literal>
                    <RegionInput
                        index
                        label="Count"
                        which=RegionField::Count
                        get=|r| r.count.clone()
                        set=|r, v| r.count = v
                    />
                </Show>
                <Show when=move || kind() == RegionKind::Iota>
                    <RegionInput
                        index
                        label="Start"
                        which=RegionField::Start
                        get=|r| r.start.clone()
                        set=|r, v| r.start = v
                    />
                    <RegionInput
                        index
                        label="Step"
                        which=RegionField::Step
                        get=|r| r.step.clone()
                        set=|r, v| r.step = v
                    />
                </Show>
                <Show when=move || kind() == RegionKind::Random>
                    <RegionInput
                        index
                        label="Seed"
                        which=RegionField::Seed
                        get=|r| r.seed.clone()
                        set=|r, v| r.seed = v
                    />
                    <RegionInput
                        index
                        label="Low"
                        which=RegionField::Low
                        get=|r| r.low.clone()
                        set=|r, v| r.low = v
                    />
                    <RegionInput
                        index
                        label="High"
                        which=RegionField::High
                        get=|r| r.high.clone()
                        set=|r, v| r.high = v
                    />
                </Show>
                <Show when=move || kind() == RegionKind::Literal>
                    <RegionInput
                        index
                        label="Values"
                        which=RegionField::Values
                        get=|r| r.values.clone()
                        set=|r, v| r.values = v
                    />
                </Show>
            </div>
        </li>
    }
}

#[component]
pub fn ConfigView() -> impl IntoView {
    let ctx = use_ctx();
    let state = FormState {
        form: Memo::new(move |_| ctx.with(|s| s.form().clone())),
        errors: Memo::new(move |_| ctx.with(|s| s.form_errors().clone())),
    };
    provide_context(state);
    let kernels = Memo::new(move |_| ctx.with(|s| s.kernel_names()));
    let kernels = move || kernels.get();
    let kernel_error = move || error_of(state, Field::Kernel);
    let override_note = move || {
        ctx.with(|s| {
            s.workgroup_override().map(|[x, y, z]| {
                format!("The kernel's .workgroup_size {x},{y},{z} overrides the workgroup field.")
            })
        })
    };
    let region_count = move || state.form.with(|f| f.regions.len());
    let valid = move || state.errors.with(|e| e.is_empty());
    view! {
        <div class="config">
            <p class="config-state" class:bad=move || !valid()>
                {move || {
                    if valid() {
                        "The configuration is valid."
                    } else {
                        "Fix the marked fields: nothing runs while the configuration is invalid."
                    }
                }}
            </p>
            <div class="fields">
                <div class="field">
                    <label for=ctx.id("cfg-kernel")>"Kernel"</label>
                    <select
                        id=ctx.id("cfg-kernel")
                        class="select"
                        prop:value=move || state.form.with(|f| f.kernel.clone())
                        on:change=move |event| {
                            let name = target_value(&event);
                            update_form(ctx, |f| f.kernel = name);
                        }
                    >
                        <option value="">"(first kernel)"</option>
                        {move || {
                            let chosen = state.form.with(|f| f.kernel.clone());
                            kernels()
                                .into_iter()
                                .map(|k| {
                                    let selected = k == chosen;
                                    view! {
                                        <option value=k.clone() selected=selected>
                                            {k.clone()}
                                        </option>
                                    }
                                })
                                .collect_view()
                        }}
                    </select>
                    <span class="field-error">{kernel_error}</span>
                </div>
                <TextField
                    label="Grid"
                    id="cfg-grid"
                    field=Field::Grid
                    get=|f| f.grid.clone()
                    set=|f, v| f.grid = v
                    hint="x,y,z workgroups"
                />
                <TextField
                    label="Workgroup size"
                    id="cfg-workgroup"
                    field=Field::Workgroup
                    get=|f| f.workgroup.clone()
                    set=|f, v| f.workgroup = v
                    hint="x,y,z threads"
                />
                <TextField
                    label="Wave width"
                    id="cfg-wave-width"
                    field=Field::WaveWidth
                    get=|f| f.wave_width.clone()
                    set=|f, v| f.wave_width = v
                    hint="1 to 64"
                />
                <TextField
                    label="Initial registers"
                    id="cfg-registers"
                    field=Field::InitialRegisters
                    get=|f| f.initial_registers.clone()
                    set=|f, v| f.initial_registers = v
                    hint="r0=7, r1=0x10"
                />
                <TextField
                    label="Device memory"
                    id="cfg-device"
                    field=Field::DeviceMemory
                    get=|f| f.device_memory.clone()
                    set=|f, v| f.device_memory = v
                    hint="bytes, 64K, 1M"
                />
                <TextField
                    label="Local memory"
                    id="cfg-local"
                    field=Field::LocalMemory
                    get=|f| f.local_memory.clone()
                    set=|f, v| f.local_memory = v
                    hint="bytes"
                />
                <TextField
                    label="Instruction budget"
                    id="cfg-budget"
                    field=Field::MaxInstructions
                    get=|f| f.max_instructions.clone()
                    set=|f, v| f.max_instructions = v
                    hint="per workgroup, 0 = none"
                />
            </div>
            <p class="override-note">{override_note}</p>
            <div class="behaviour">
                <button
                    type="button"
                    role="switch"
                    class="btn switch"
                    aria-checked=move || {
                        if state.form.with(|f| f.reference_behaviour) { "true" } else { "false" }
                    }
                    aria-describedby=ctx.id("behaviour-hint")
                    on:click=move |_| {
                        update_form(ctx, |f| f.reference_behaviour = !f.reference_behaviour)
                    }
                >
                    <span class="switch-knob" aria-hidden="true"></span>
                    "Reference emulator behaviour"
                </button>
                <span id=ctx.id("behaviour-hint") class="hint">
                    "Run as wave-emu 0.1.2 does, its departures from the spec included (a break inside an if revived at endif, empty paths run, halt ends the whole wave, …); the status and the events say where a step departs from the spec."
                </span>
            </div>
            <h4 class="subheading">"Device memory contents"</h4>
            <ol class="regions">
                <For each=move || 0..region_count() key=|i| *i let:index>
                    <Region index />
                </For>
            </ol>
            <button
                type="button"
                class="btn"
                on:click=move |_| {
                    update_form(
                        ctx,
                        |f| {
                            let offset = f.regions.len() * 32;
                            f.regions
                                .push(RegionForm::new(RegionKind::Zeros, ElemType::U32, &offset.to_string()));
                        },
                    )
                }
            >
                "Add region"
            </button>
        </div>
    }
}
