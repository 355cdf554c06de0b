//! The bindings to the CodeMirror editor (`src/editor/`, bundled by `scripts/build-editor.mjs`
//! into `target/editor/wave-editor.js`). Everything Rust says to the editor goes through here.
//!
//! The editor's module is not imported with the app: `src/editor/load.js` fetches it the first
//! time an editor is wanted ([`EditorModule::load`]), so that it does not share a first visit's
//! network with the wasm (see ARCHITECTURE.md's key decisions).

use js_sys::{Array, Float64Array, Function, Uint32Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/src/editor/load.js")]
extern "C" {
    /// The editor's module, fetched once (a promise).
    #[wasm_bindgen(js_name = loadEditorModule)]
    fn load_editor_module() -> js_sys::Promise;

    #[wasm_bindgen(js_name = openEditor, catch)]
    #[allow(clippy::too_many_arguments)]
    fn open_editor(
        module: &JsValue,
        parent: &web_sys::HtmlElement,
        text: &str,
        mnemonics: &str,
        cache_hints: &str,
        specials: &str,
        changed: &Function,
        caret: &Function,
        toggle_breakpoint: &Function,
    ) -> Result<WaveEditor, JsValue>;
}

// The editor's bundle, declared as a module of this crate so that wasm-bindgen puts it among its
// snippets, where the loader's relative path points, for Trunk's build and the test runner alike.
// Nothing is imported from it: an import would make the app's JavaScript import it statically.
#[wasm_bindgen(module = "/target/editor/wave-editor.js")]
extern "C" {
    /// The editor's class, as the bundle exports it; never read from here (see above).
    #[wasm_bindgen(js_name = WaveEditor)]
    pub type EditorBundle;
}

#[wasm_bindgen]
extern "C" {
    /// One CodeMirror view holding the kernel source.
    pub type WaveEditor;

    /// The whole text.
    #[wasm_bindgen(method)]
    pub fn text(this: &WaveEditor) -> String;

    /// Replaces the text without counting as an edit (undo still brings the old text back).
    #[wasm_bindgen(method, js_name = setText)]
    pub fn set_text(this: &WaveEditor, text: &str);

    /// Read-only (an embedded page can ask for it) or editable.
    #[wasm_bindgen(method, js_name = setReadOnly)]
    pub fn set_read_only(this: &WaveEditor, read_only: bool);

    #[wasm_bindgen(method, js_name = setDiagnostics)]
    fn set_diagnostics_flat(this: &WaveEditor, flat: &Array);

    #[wasm_bindgen(method, js_name = setBreakpoints)]
    fn set_breakpoints_array(this: &WaveEditor, lines: &Uint32Array);

    #[wasm_bindgen(method, js_name = setMachineState)]
    fn set_machine_state_arrays(
        this: &WaveEditor,
        line: u32,
        heat_lines: &Uint32Array,
        efficiency: &Float64Array,
        executions: &Float64Array,
        scale: f64,
    );

    #[wasm_bindgen(method)]
    pub fn destroy(this: &WaveEditor);
}

/// A diagnostic as the editor takes it: UTF-16 offsets into its current text.
pub struct EditorDiagnostic<'a> {
    pub from: u32,
    pub to: u32,
    pub severity: &'a str,
    pub message: String,
}

/// The callbacks the editor calls; they live as long as the editor.
pub struct EditorHooks {
    /// After an edit by the user (not by [`WaveEditor::set_text`]), with the new line count.
    pub changed: Closure<dyn FnMut(u32)>,
    /// After the caret moved, with its 1-based line.
    pub caret: Closure<dyn FnMut(u32)>,
    /// A breakpoint toggle on a line (gutter click or Ctrl+F9).
    pub toggle_breakpoint: Closure<dyn FnMut(u32)>,
}

/// The editor's module, once it has arrived.
pub struct EditorModule(JsValue);

/// What a JavaScript error says.
fn error_text(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}

impl EditorModule {
    /// Fetches the editor's module (at once when it has been fetched before), or says why it
    /// could not.
    pub async fn load() -> Result<EditorModule, String> {
        JsFuture::from(load_editor_module())
            .await
            .map(EditorModule)
            .map_err(|error| error_text(&error))
    }

    /// Creates an editor in `parent` with the engine's tables, or says why it could not.
    pub fn create(
        &self,
        parent: &web_sys::HtmlElement,
        text: &str,
        hooks: &EditorHooks,
    ) -> Result<WaveEditor, String> {
        open_editor(
            &self.0,
            parent,
            text,
            &wave_session::mnemonic_table(),
            &wave_session::cache_hint_names(),
            &wave_session::special_register_names(),
            hooks.changed.as_ref().unchecked_ref(),
            hooks.caret.as_ref().unchecked_ref(),
            hooks.toggle_breakpoint.as_ref().unchecked_ref(),
        )
        .map_err(|error| error_text(&error))
    }
}

impl WaveEditor {
    pub fn set_diagnostics(&self, diagnostics: &[EditorDiagnostic]) {
        let flat = Array::new();
        for d in diagnostics {
            flat.push(&d.from.into());
            flat.push(&d.to.into());
            flat.push(&JsValue::from_str(d.severity));
            flat.push(&JsValue::from_str(&d.message));
        }
        self.set_diagnostics_flat(&flat);
    }

    pub fn set_breakpoints(&self, lines: &[u32]) {
        self.set_breakpoints_array(&Uint32Array::from(lines));
    }

    /// What a step changes, in one editor update: the selected wave's line (0 for none) and
    /// per line (line, SIMD efficiency 0–1, executions); a bar as long as the gutter stands for
    /// `scale` executions.
    pub fn set_machine_state(&self, line: u32, heat: &[(u32, f64, u64)], scale: u64) {
        let lines: Vec<u32> = heat.iter().map(|h| h.0).collect();
        let efficiency: Vec<f64> = heat.iter().map(|h| h.1).collect();
        let executions: Vec<f64> = heat.iter().map(|h| h.2 as f64).collect();
        self.set_machine_state_arrays(
            line,
            &Uint32Array::from(&lines[..]),
            &Float64Array::from(&efficiency[..]),
            &Float64Array::from(&executions[..]),
            scale as f64,
        );
    }
}
