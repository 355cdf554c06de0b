//! Lesson packs on the page: opening one (a `.md` file chosen or dropped, a `#pack=<url>` link, a
//! link that carries a small pack whole), the "Lessons" list with its ticks and scores, and the
//! open pack's lesson notes. Reading and checking a pack is `wave_session::pack`'s; this is the
//! browser glue.
//!
//! The open pack is kept in local storage (its text), so a reload finds it again with its
//! progress, which the progress store keeps under the pack's title and a hash of its text.

use std::cell::Cell;
use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wave_session::markup::escape_into;
use wave_session::pack::{read_pack_at, Pack, PackAddress, PackError, MAX_INLINE_PACK_BYTES};
use wave_session::{Progress, Session};

use super::{compare, storage_get, storage_set, use_ctx, Ctx};
use crate::split::{arrived, loaded, NotArrived};

/// localStorage key of the open lesson pack's text.
pub const PACK_KEY: &str = "wave-playground.pack";
/// localStorage key of the address the open pack was fetched from (empty for a file or a link),
/// which its images are read beside.
const PACK_ADDRESS_KEY: &str = "wave-playground.pack-address";

/// A pack as opened: read, and its text as it came (what "Download as lesson pack" writes).
pub struct OpenPack {
    pub pack: Pack,
    pub text: String,
}

thread_local! {
    /// The open pack's signal, made by [`provide_packs`] as the app mounts: the page has one
    /// pack at a time, for both runs of compare mode.
    static OPEN: Cell<Option<RwSignal<Option<Arc<OpenPack>>>>> = const { Cell::new(None) };
}

/// The open pack (`None` before [`provide_packs`], and while no pack is open).
pub fn open_pack() -> RwSignal<Option<Arc<OpenPack>>> {
    OPEN.with(|open| match open.get() {
        Some(signal) if !signal.is_disposed() => signal,
        _ => {
            let signal = RwSignal::new(None);
            open.set(Some(signal));
            signal
        }
    })
}

/// Reads the pack in `bytes`, fetched from the absolute `address` (`None` for a file, a link or
/// storage); its text comes back with it. In a module of its own in the page's build
/// (src/split.rs): the Markdown reader is needed only when a teacher's pack is opened, since the
/// built-in lessons come already read. Every way the page reads a pack comes through here.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(pack, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn read_pack_text(
    bytes: Vec<u8>,
    address: Option<String>,
) -> Result<Result<OpenPack, PackError>, NotArrived> {
    let address = address.as_deref().and_then(PackAddress::parse);
    Ok(read_pack_at(&bytes, address.as_ref()).map(|pack| OpenPack {
        pack,
        // A pack that reads is UTF-8 text, so nothing is replaced here.
        text: String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }))
}

/// Sets up the open pack as the page starts: the pack a link carries whole, else the one
/// `#pack=<url>` names (fetched), else the one the last visit left open. Each is read once the
/// pack reader has arrived; if it does not arrive, the alert says which pack could not be opened
/// and the work on show stays.
pub fn provide_packs(ctx: Ctx, link_state: &str) {
    // A signal of this page's own: one made for an earlier mount (the browser tests mount the
    // app many times in one page) was disposed with it.
    let open = RwSignal::new(None);
    OPEN.with(|cell| cell.set(Some(open)));
    if let Some(text) = Session::link_pack(link_state) {
        leptos::task::spawn_local(async move {
            let read = loaded!(read_pack_text(text.into_bytes(), None));
            match arrived(ctx, "The link's lesson pack could not be opened", read) {
                Some(Ok(opened)) => set_open(ctx, opened, None),
                Some(Err(e)) => {
                    ctx.alert.try_set(Some(format!(
                        "The link's lesson pack cannot be opened: {e}. The link's kernel is shown."
                    )));
                }
                None => {}
            }
        });
        return;
    }
    if let Some(url) = link_state.strip_prefix("pack=") {
        let url = js_sys::decode_uri_component(url)
            .ok()
            .and_then(|u| u.as_string())
            .unwrap_or_else(|| url.to_string());
        fetch_pack(ctx, url);
        return;
    }
    if ctx.page.embed {
        return;
    }
    if let Some(text) = storage_get(PACK_KEY).filter(|t| !t.is_empty()) {
        let address = storage_get(PACK_ADDRESS_KEY);
        leptos::task::spawn_local(async move {
            let read = loaded!(read_pack_text(text.into_bytes(), address));
            let failed = "The lesson pack left open on the last visit could not be opened again";
            if let Some(Ok(opened)) = arrived(ctx, failed, read) {
                // A pack opened while this one was being read is the newer choice, and stays.
                if open.try_get_untracked().is_some_and(|o| o.is_none()) {
                    open.try_set(Some(Arc::new(opened)));
                }
            }
        });
    }
}

fn set_open(ctx: Ctx, opened: OpenPack, address: Option<&str>) {
    if !ctx.page.embed {
        storage_set(PACK_KEY, &opened.text);
        storage_set(PACK_ADDRESS_KEY, address.unwrap_or_default());
    }
    open_pack().try_set(Some(Arc::new(opened)));
}

/// Opens the pack in the file `name`'s `bytes`, once the pack reader has arrived (see
/// [`show_read`]); if it does not arrive, the alert says the file could not be opened.
pub async fn open_pack_file(ctx: Ctx, name: String, bytes: Vec<u8>) {
    let read = loaded!(read_pack_text(bytes, None));
    if let Some(read) = arrived(ctx, &format!("{name} could not be opened"), read) {
        // While comparing, the run whose region had focus last.
        show_read(compare::target(ctx), &name, read, None);
    }
}

/// Opens the pack just read from the file or address `name` at its first lesson. A pack that
/// cannot be read is explained, naming its line, and the work on show stays.
/// `address` is the absolute address a fetched pack came from (`None` for a file).
fn show_read(ctx: Ctx, name: &str, read: Result<OpenPack, PackError>, address: Option<&str>) {
    match read {
        Ok(opened) => {
            let note = format!(
                "Opened the lesson pack “{}” ({} lessons)",
                opened.pack.title,
                opened.pack.lessons.len()
            );
            set_open(ctx, opened, address);
            open_lesson(ctx, 0);
            ctx.alert.set(None);
            ctx.notice.set(Some(note));
        }
        Err(e) => ctx.alert.set(Some(format!(
            "{name} is not a lesson pack the playground can open: {e}. Your work is kept."
        ))),
    }
}

/// Fetches the pack at `url` and opens it; every way it can fail gets its own message.
fn fetch_pack(ctx: Ctx, url: String) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let request = JsFuture::from(window.fetch_with_str(&url));
    wasm_bindgen_futures::spawn_local(async move {
        let failed = |why: String| {
            ctx.alert.set(Some(format!(
                "Could not fetch the lesson pack at {url}: {why}. Your work is kept."
            )))
        };
        let response = match request.await {
            Ok(value) => value.unchecked_into::<web_sys::Response>(),
            Err(_) => {
                return failed(
                    "the network refused it (the address may be wrong, offline, or on another \
                     site that does not allow the playground to read it: such a site must send \
                     CORS headers)"
                        .to_string(),
                )
            }
        };
        if !response.ok() {
            return failed(format!(
                "the server answered HTTP {} {}",
                response.status(),
                response.status_text()
            ));
        }
        let body = match response.array_buffer() {
            Ok(promise) => JsFuture::from(promise).await,
            Err(e) => Err(e),
        };
        let Ok(buffer) = body else {
            return failed("the download broke off".to_string());
        };
        let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
        // Its images are read beside it: the address as the browser fetched it.
        let absolute = response.url();
        let unchanged = left_open(ctx, &bytes);
        let read = loaded!(read_pack_text(bytes, Some(absolute.clone())));
        let not_read = format!("The lesson pack at {url} could not be opened");
        match arrived(ctx, &not_read, read) {
            // The link opened again (a reload, a bookmark), its pack unchanged since the last
            // visit left it open: the pack is open again and the autosaved work stays on show,
            // so the lesson the learner had reached and their edits are not replaced by the
            // pack's first lesson.
            Some(Ok(opened)) if unchanged => set_open(ctx, opened, Some(&absolute)),
            Some(read) => show_read(ctx, &url, read, Some(&absolute)),
            None => {}
        }
    });
}

/// Whether `bytes` are the pack the last visit left open (never for an embedded page, which
/// keeps nothing).
fn left_open(ctx: Ctx, bytes: &[u8]) -> bool {
    !ctx.page.embed && storage_get(PACK_KEY).is_some_and(|text| text.as_bytes() == bytes)
}

/// Opens lesson `index` of the open pack in the run examples open in.
pub fn open_lesson(ctx: Ctx, index: usize) {
    let Some(open) = open_pack().get_untracked() else {
        return;
    };
    if let Some(session) = Session::from_pack_lesson(&open.pack, index) {
        let run = compare::target(ctx);
        run.replace_session(session);
        ctx.lesson.set(None);
        ctx.alert.set(None);
    }
}

/// Closes the open pack: the built-in lessons are listed again.
fn close_pack(ctx: Ctx) {
    open_pack().set(None);
    if !ctx.page.embed {
        storage_set(PACK_KEY, "");
        storage_set(PACK_ADDRESS_KEY, "");
    }
}

/// The pack to carry whole in a link to `session`: the open pack when the work is one of its
/// lessons and the pack is small enough (see `MAX_INLINE_PACK_BYTES`).
pub fn inline_pack(session: &Session) -> Option<String> {
    let open = open_pack().try_get_untracked().flatten()?;
    let (key, _) = session.pack_lesson()?.rsplit_once('/')?;
    (key == open.pack.key && open.text.len() <= MAX_INLINE_PACK_BYTES).then(|| open.text.clone())
}

/// Which lesson of the open pack the work is, if it is one.
fn current_index(pack: &Pack, lesson: Option<&str>) -> Option<usize> {
    let (key, id) = lesson?.rsplit_once('/')?;
    (key == pack.key)
        .then(|| pack.lessons.iter().position(|l| l.id == id))
        .flatten()
}

/// One entry of the "Lessons" list.
#[derive(Clone, PartialEq)]
pub struct ListEntry {
    pub title: String,
    /// Where its progress is kept.
    pub progress_key: String,
}

/// The tick of an entry, and its scores as words: the questions' ("3 of 4 right") and the best
/// finished Be the warp run's ("warp 12/14").
fn entry_note(progress: &Progress, key: &str) -> (bool, String) {
    let entry = progress.entry(key);
    let score = entry.score;
    let questions =
        (score.asked() > 0).then(|| format!("{} of {} right", score.right, score.asked()));
    let warp = (entry.warp.asked() > 0)
        .then(|| format!("warp {}/{}", entry.warp.right, entry.warp.asked()));
    let note = [questions, warp]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    (entry.done, note)
}

/// The list's items as markup: each entry a button (its index in `data-index`), ticked and
/// scored from `progress`, the current one marked.
fn list_markup(entries: &[ListEntry], current: Option<usize>, progress: &Progress) -> String {
    let mut out = String::with_capacity(entries.len() * 200);
    for (index, entry) in entries.iter().enumerate() {
        let (done, score) = entry_note(progress, &entry.progress_key);
        out.push_str("<li><button type=\"button\" class=\"lesson-entry\" data-index=\"");
        out.push_str(&index.to_string());
        out.push('"');
        if current == Some(index) {
            out.push_str(" aria-current=\"step\"");
        }
        out.push_str("><span class=\"lesson-tick\" aria-hidden=\"true\">");
        if done {
            out.push('✓');
        }
        out.push_str("</span><span class=\"lesson-name\">");
        escape_into(&mut out, &entry.title);
        out.push_str("</span><span class=\"visually-hidden\">");
        if done {
            out.push_str(" (done)");
        }
        out.push_str("</span><span class=\"lesson-score\">");
        escape_into(&mut out, &score);
        out.push_str("</span></button></li>");
    }
    out
}

/// Writes the list's items, the focus staying on the entry it was on (by its index): choosing
/// an entry with the keyboard marks it current, which writes the items again.
fn write_items(list: &web_sys::HtmlElement, markup: &str) {
    let focused = document()
        .active_element()
        .filter(|element| list.contains(Some(element)))
        .and_then(|element| element.get_attribute("data-index"));
    list.set_inner_html(markup);
    let button = focused
        .and_then(|index| {
            list.query_selector(&format!("button[data-index=\"{index}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|button| button.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(button) = button {
        let _ = button.focus();
    }
}

/// The index of the entry a click inside the list was on.
fn clicked_entry(event: &web_sys::MouseEvent) -> Option<usize> {
    event
        .target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("button[data-index]")
        .ok()??
        .get_attribute("data-index")?
        .parse()
        .ok()
}

/// The list named "Lessons": the pack's title as its heading, a tick on each lesson run to its
/// end, its score, the current lesson marked; choosing one opens it. The items are written as
/// markup by one effect, and one listener on the list takes the clicks: a reactive view per
/// entry and per mark (about a hundred for the built-in lessons) cost a page that opens a
/// lesson more start-up work than the list itself.
#[component]
pub fn LessonList(
    #[prop(into)] title: Signal<String>,
    #[prop(into)] entries: Signal<Vec<ListEntry>>,
    #[prop(into)] current: Signal<Option<usize>>,
    on_pick: Callback<usize>,
) -> impl IntoView {
    let ctx = use_ctx();
    let heading = ctx.id("lessons-heading");
    let list = NodeRef::<leptos::html::Ol>::new();
    let written = StoredValue::new(String::new());
    Effect::new(move |_| {
        let markup = entries.with(|e| ctx.progress.with(|p| list_markup(e, current.get(), p)));
        let Some(list) = list.get() else {
            return;
        };
        if written.with_value(|w| *w != markup) {
            write_items(&list, &markup);
            written.set_value(markup);
        }
    });
    let on_click = move |event: web_sys::MouseEvent| {
        if let Some(index) = clicked_entry(&event) {
            on_pick.run(index);
        }
    };
    view! {
        // While comparing, each run's list is named with its run, so the landmarks stay unique.
        <nav class="lesson-list" aria-label=ctx.landmark("Lessons")>
            <h3 id=heading.clone() class="lesson-list-title">{move || title.get()}</h3>
            <ol aria-labelledby=heading node_ref=list on:click=on_click></ol>
        </nav>
    }
}

/// The open pack's panel above the editor: the current lesson's title and prose, "Next lesson",
/// how many are done, and the "Lessons" list. Shown while a pack is open.
#[component]
pub fn PackNotes() -> impl IntoView {
    let ctx = use_ctx();
    let open = open_pack();
    let lesson = Memo::new(move |_| ctx.with(|s| s.pack_lesson().map(str::to_string)));
    let current = Memo::new(move |_| {
        open.with(|o| {
            o.as_ref()
                .and_then(|o| current_index(&o.pack, lesson.get().as_deref()))
        })
    });
    let title = Signal::derive(move || {
        open.with(|o| o.as_ref().map(|o| o.pack.title.clone()).unwrap_or_default())
    });
    let entries = Signal::derive(move || {
        open.with(|o| {
            o.as_ref()
                .map(|o| {
                    o.pack
                        .lessons
                        .iter()
                        .map(|l| ListEntry {
                            title: l.title.clone(),
                            progress_key: wave_session::pack_progress_key(&format!(
                                "{}/{}",
                                o.pack.key, l.id
                            )),
                        })
                        .collect()
                })
                .unwrap_or_default()
        })
    });
    let shown = move || {
        open.with(|o| {
            let o = o.as_ref()?;
            let lesson = current.get().and_then(|i| o.pack.lessons.get(i));
            Some(match lesson {
                Some(l) => (l.title.clone(), l.prose_html.clone()),
                None => (o.pack.title.clone(), o.pack.intro_html.clone()),
            })
        })
    };
    let count = move || entries.with(Vec::len);
    let next = move || current.get().map_or(0, |i| i + 1);
    let has_next = move || next() < count();
    let done = move || {
        ctx.progress.with(|p| {
            let done = entries.with(|e| e.iter().filter(|e| p.entry(&e.progress_key).done).count());
            format!("{done} of {} lessons done", count())
        })
    };
    view! {
        <Show when=move || open.with(Option::is_some)>
            <details class="example-notes pack-notes" open>
                <summary>{move || shown().map(|s| s.0).unwrap_or_default()}</summary>
                <div class="lesson-prose" inner_html=move || shown().map(|s| s.1).unwrap_or_default()></div>
                <div class="example-actions">
                    <Show when=has_next>
                        <button
                            type="button"
                            class="btn small primary"
                            on:click=move |_| open_lesson(ctx, next())
                        >
                            {move || if current.get().is_some() { "Next lesson" } else { "Start the first lesson" }}
                        </button>
                    </Show>
                    <button type="button" class="btn small" on:click=move |_| close_pack(ctx)>
                        "Close pack"
                    </button>
                    <span class="lesson-path-note">{done}</span>
                </div>
                <LessonList
                    title=title
                    entries=entries
                    current=current
                    on_pick=Callback::new(move |index| open_lesson(ctx, index))
                />
            </details>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::{list_markup, ListEntry};
    use wave_session::Progress;

    fn entry(title: &str, key: &str) -> ListEntry {
        ListEntry {
            title: title.to_string(),
            progress_key: key.to_string(),
        }
    }

    #[test]
    fn the_list_marks_the_current_entry_and_ticks_and_scores_the_done_ones() {
        let entries = [
            entry("If & else", "example:if-else"),
            entry("Loops", "example:loop"),
        ];
        let mut progress = Progress::default();
        progress.mark_done("example:loop");
        progress.record_answer("example:loop", Some(false));
        let markup = list_markup(&entries, Some(0), &progress);
        assert_eq!(
            markup,
            "<li><button type=\"button\" class=\"lesson-entry\" data-index=\"0\" \
             aria-current=\"step\"><span class=\"lesson-tick\" aria-hidden=\"true\"></span>\
             <span class=\"lesson-name\">If &amp; else</span>\
             <span class=\"visually-hidden\"></span><span class=\"lesson-score\"></span>\
             </button></li>\
             <li><button type=\"button\" class=\"lesson-entry\" data-index=\"1\">\
             <span class=\"lesson-tick\" aria-hidden=\"true\">✓</span>\
             <span class=\"lesson-name\">Loops</span>\
             <span class=\"visually-hidden\"> (done)</span>\
             <span class=\"lesson-score\">0 of 1 right</span></button></li>"
        );
        assert!(!list_markup(&entries, None, &progress).contains("aria-current"));
    }
}
