// The page before its wasm has arrived: the kernel the app is about to open, and its lesson's
// explanation, laid out where the app will show them, with the machine pane saying it is
// loading. index.html runs this inline, as soon as the loading note is parsed;
// scripts/build-preview.mjs puts the data in (the default kernel and each built-in example's
// title and explanation, the lessons' prose rendered by the session crate), so no Markdown is
// rendered here.
//
// The work is chosen as the app chooses it (src/app.rs): a share link in the address, else the
// autosave, else the default kernel. Anything the preview cannot show as the app will (a link it
// cannot read, two compared runs, an embedded page, a lesson pack named by address, a link or
// autosave in a browser without DecompressionStream('deflate-raw')) leaves the page as it was:
// the loading note, and whatever the app then says; so does a load that starts from compiled
// code (below), whose app starts at once. The kernel shows as a listing. Nothing in the preview is
// clickable or focusable, so nothing done before the app starts can be lost or harmful; the app
// reads the address and storage itself, as before. When the app starts (or fails to),
// index.html removes the preview with the loading note.
(function () {
  'use strict';
  var DATA = __WAVE_PREVIEW_DATA__;
  // As crates/wave-session/src/share.rs: the longest link body and payload it reads, and the
  // most steps a link may ask for.
  var MAX_LINK_CHARS = 1 << 21;
  var MAX_DECODED_BYTES = 1 << 20;
  var MAX_LINK_STEPS = 200000000;
  var AUTOSAVE_KEY = 'wave-playground.autosave';

  var root = document.documentElement;
  // Whether the preview was shown ("shown") or not ("none"), once that is decided: a condition
  // for the tests to wait on.
  function decided(shown) {
    root.setAttribute('data-preview', shown ? 'shown' : 'none');
  }
  var loading = document.getElementById('loading');
  if (!loading || root.hasAttribute('data-unsupported')) return decided(false);
  // A load that starts from compiled code (scripts/lib/started-build.js, in the page's head) has
  // its app drawing the kernel a moment later: a preview drawn first only delays it. On a repeat
  // visit on slow 4G with a 4x slower CPU the preview's script and frame held the first
  // interactive frame back by about 0.1 s, to show the kernel about 0.25 s before the app did.
  if (root.hasAttribute('data-compiled-start')) return decided(false);

  // The payload of `tag.` + base64url(raw deflate(JSON)), or null when it does not read.
  function decode(tag, text) {
    if (text.slice(0, tag.length + 1) !== tag + '.') return Promise.resolve(null);
    var body = text.slice(tag.length + 1);
    if (body.length > MAX_LINK_CHARS || !/^[A-Za-z0-9_-]*$/.test(body)) return Promise.resolve(null);
    var stream;
    try {
      var base64 = body.replace(/-/g, '+').replace(/_/g, '/');
      while (base64.length % 4) base64 += '=';
      var binary = atob(base64);
      var bytes = new Uint8Array(binary.length);
      for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    } catch (e) {
      return Promise.resolve(null);
    }
    var reader = stream.getReader();
    var chunks = [];
    var size = 0;
    function read() {
      return reader.read().then(function (step) {
        if (step.done) return chunks;
        size += step.value.length;
        if (size > MAX_DECODED_BYTES) {
          reader.cancel().catch(function () {});
          return null;
        }
        chunks.push(step.value);
        return read();
      });
    }
    return read().then(function (parts) {
      if (!parts) return null;
      var json = new TextDecoder('utf-8', { fatal: true }).decode(
        parts.length === 1 ? parts[0] : new Uint8Array(parts.reduce(function (all, part) {
          var joined = new Uint8Array(all.length + part.length);
          joined.set(all);
          joined.set(part, all.length);
          return joined;
        }, new Uint8Array(0))));
      var payload = JSON.parse(json);
      if (!payload || typeof payload !== 'object' || typeof payload.source !== 'string') return null;
      return payload.steps > MAX_LINK_STEPS ? null : payload;
    }).catch(function () {
      return null;
    });
  }

  // Whether this browser reads raw deflate, which links and autosaves are compressed with.
  function inflates() {
    if (typeof DecompressionStream !== 'function' || typeof Blob !== 'function' || !Blob.prototype.stream) {
      return false;
    }
    try {
      // Older browsers have the stream but not raw deflate.
      new DecompressionStream('deflate-raw');
      return true;
    } catch (e) {
      return false;
    }
  }

  // What the app will open, as `{ source, example, pack }`, or null to show nothing.
  function work() {
    var parts = location.hash.replace(/^#/, '').split('&');
    var state = parts[0];
    // An embed, or a read-only page, shows its own way; a pack named by address is the app's.
    if (parts.indexOf('embed') > 0 || parts.indexOf('readonly') > 0 || state.slice(0, 5) === 'pack=') {
      return Promise.resolve(null);
    }
    var saved = null;
    try {
      saved = localStorage.getItem(AUTOSAVE_KEY);
    } catch (e) {}
    var fallback = { source: DATA['default'] };
    // The default kernel needs nothing decoded; a link or an autosave does.
    if (!state && !saved) return Promise.resolve(fallback);
    if (!inflates()) return Promise.resolve(null);
    if (state) return decode('v1', state.trim());
    // An autosave the app cannot read gives way to the default kernel there too.
    return decode('a1', saved.trim()).then(function (payload) { return payload || fallback; });
  }

  // The editor footer's line count, as the app words it.
  function linesText(lines) {
    return lines === 1 ? '1 line' : lines + ' lines';
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A lesson pack kept in this browser: the app lists its lessons instead of the built-in ones.
  function storedPack() {
    try {
      return !!localStorage.getItem('wave-playground.pack');
    } catch (e) {
      return false;
    }
  }

  // The built-in lessons as the app lists them under a lesson's explanation, `current` marked.
  function lessonList(current) {
    var list = element('div', 'lesson-list');
    list.appendChild(element('h3', 'lesson-list-title', 'Built-in lessons'));
    var entries = element('ol');
    DATA.lessons.forEach(function (id) {
      var entry = element('span', 'lesson-entry');
      if (id === current) entry.setAttribute('aria-current', 'step');
      entry.appendChild(element('span', 'lesson-name', DATA.examples[id].title));
      var item = element('li');
      item.appendChild(entry);
      entries.appendChild(item);
    });
    list.appendChild(entries);
    return list;
  }

  function show(payload) {
    // Two compared runs are laid out otherwise; the app shows them.
    if (!payload || payload.b || payload.pair || !document.getElementById('loading')) return false;
    var source = payload.source;
    // A lesson's explanation (none for a lesson pack carried in the link: its prose is the
    // app's to render).
    var notes = !payload.pack && typeof payload.example === 'string' &&
      Object.prototype.hasOwnProperty.call(DATA.examples, payload.example) ? DATA.examples[payload.example] : null;
    var app = element('div', 'app preview');
    app.id = 'preview';
    var header = element('header', 'app-header');
    var brand = element('h1', 'brand');
    var mark = element('span', 'brand-mark', '≋');
    mark.setAttribute('aria-hidden', 'true');
    brand.appendChild(mark);
    brand.appendChild(document.createTextNode('WAVE Playground'));
    header.appendChild(brand);
    // The app header's controls, unseen, so that the header wraps to the app's height at any
    // width and the panes below do not move when the app takes over.
    var picker = element('span', 'select examples preview-reserve', notes ? notes.title : 'Examples');
    header.appendChild(picker);
    header.appendChild(element('span', 'header-spacer'));
    ['Compare runs', 'Open file…', 'Copy link', 'Copy embed code', '◐ Theme: system', 'Export ▾',
      'Presenter mode', 'Help'].forEach(function (label) {
      header.appendChild(element('span', 'btn preview-reserve', label));
    });
    app.appendChild(header);

    var workspace = element('div', 'workspace');
    var editorPane = element('section', 'pane editor-pane');
    editorPane.setAttribute('aria-label', 'Kernel');
    editorPane.appendChild(element('h2', 'pane-title', 'Kernel'));
    if (notes) {
      var box = element('div', 'example-notes preview-notes');
      box.setAttribute('data-preview', 'notes');
      box.appendChild(element('div', 'preview-summary', notes.title));
      if (typeof notes.html === 'string') {
        var prose = element('div', 'lesson-prose');
        prose.innerHTML = notes.html;
        var links = prose.querySelectorAll('a, [tabindex]');
        for (var i = 0; i < links.length; i++) links[i].setAttribute('tabindex', '-1');
        box.appendChild(prose);
      } else {
        box.appendChild(element('p', '', notes.text));
      }
      // The app's row of lesson actions comes with it; its place is kept.
      var actions = element('div', 'example-actions preview-reserve');
      actions.appendChild(element('span', 'btn small', 'Next lesson'));
      box.appendChild(actions);
      if (DATA.lessons.indexOf(payload.example) >= 0 && !storedPack()) box.appendChild(lessonList(payload.example));
      editorPane.appendChild(box);
    }
    var editor = element('div', 'editor');
    // One block per line, the line break kept in its text (the listing reads as the source);
    // the stylesheet numbers them.
    var listing = element('pre', 'kernel-listing');
    listing.setAttribute('data-preview', 'kernel');
    listing.setAttribute('role', 'group');
    listing.setAttribute('aria-label', 'Kernel source, shown while the playground loads');
    var lines = source.split('\n');
    lines.forEach(function (line, index) {
      listing.appendChild(element('span', 'kernel-listing-line', index + 1 < lines.length ? line + '\n' : line));
    });
    editor.appendChild(listing);
    editorPane.appendChild(editor);
    lines = lines.length;
    var footer = element('p', 'pane-footer');
    footer.appendChild(element('span', ''));
    var count = element('span', '', linesText(lines));
    count.setAttribute('data-preview', 'lines');
    footer.appendChild(count);
    editorPane.appendChild(footer);
    workspace.appendChild(editorPane);

    var machine = element('section', 'pane machine-pane');
    machine.setAttribute('aria-label', 'Machine');
    machine.appendChild(element('h2', 'pane-title', 'Machine'));
    var body = element('div', 'machine-body');
    machine.appendChild(body);
    workspace.appendChild(machine);
    workspace.appendChild(element('section', 'pane tabs-pane'));
    app.appendChild(workspace);

    // The loading note moves into the machine pane: the one place that says the page is
    // still arriving.
    loading.parentNode.insertBefore(app, loading);
    body.appendChild(loading);
    return true;
  }

  work().then(function (payload) {
    var shown = show(payload);
    decided(shown);
  }).catch(function () { decided(false); });
})();
