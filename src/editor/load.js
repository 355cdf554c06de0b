// Loads the CodeMirror editor's module (target/editor/wave-editor.js, bundled from editor.js) the
// first time an editor is wanted, instead of the page importing it with the app's JavaScript.
// The editor is a sixth of a first visit's bytes: imported with the app, it shared the network
// with the wasm and held the app's module back until it had arrived. The app starts without it,
// showing the kernel as a listing, and asks for it here as it starts (src/components/editor.rs).
//
// scripts/build-split.mjs puts the bundle where this path points in the built page (under
// wasm-bindgen's snippets, beside this file's copy), since nothing imports it statically.
const EDITOR_URL = new URL("../../target/editor/wave-editor.js", import.meta.url).href;

let editorModule = null;

/// After the next frame has been drawn (or a moment, in a window that draws none, such as one in
/// the background).
function afterNextFrame() {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 200);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(fallback);
      resolve();
    }, 0));
  });
}

/// The editor's module, fetched once. Asked for as the app starts, it is fetched at once (a
/// preload link) but run only after the app's first frame, so that its evaluation and the
/// editor's creation do not hold up the machine's first drawing. A module that failed to arrive
/// fails every editor of the page (a reload fetches it again).
export function loadEditorModule() {
  if (!editorModule) {
    if (!document.querySelector(`link[rel="modulepreload"][href="${EDITOR_URL}"]`)) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = EDITOR_URL;
      document.head.appendChild(link);
    }
    editorModule = afterNextFrame().then(() => import(EDITOR_URL));
  }
  return editorModule;
}

/// A new editor in `parent`, from the module `loadEditorModule` gave (the arguments are those of
/// its `WaveEditor` constructor, which may throw).
export function openEditor(module, parent, text, mnemonics, cacheHints, specials, changed, caret, toggleBreakpoint) {
  return new module.WaveEditor(parent, text, mnemonics, cacheHints, specials, changed, caret, toggleBreakpoint);
}
