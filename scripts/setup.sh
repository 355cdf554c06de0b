#!/usr/bin/env bash
# Installs everything WAVE Playground needs on a fresh Debian machine, and nothing twice.
# Sourced by scripts/serve.sh and scripts/test.sh; when everything is present it costs well
# under 5 s (a few `--version` calls).
set -euo pipefail

TRUNK_VERSION="0.21.14"
WASM_BINDGEN_VERSION="0.2.130"
GECKODRIVER_VERSION="0.37.1"
WASM_OPT_VERSION="132"
WASM_SPLIT_VERSION="0.2.4"

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$repo_root/node_modules/.bin:$PATH"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export TRUNK_SKIP_VERSION_CHECK=true

say() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

# "tool --version" prints e.g. "trunk 0.21.14"; succeed only if it names exactly this version.
has_version() { command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qw "$2"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@";
  elif command -v sudo >/dev/null 2>&1; then sudo "$@";
  else die "need root to run: $* (install it by hand or run as root)"; fi
}

command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup first"
command -v npm >/dev/null 2>&1 || die "npm not found: install Node.js 20+ first"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || die "rustup could not add wasm32-unknown-unknown"
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$component"; then
    say "adding rustup component $component"
    rustup component add "$component" || die "rustup could not add $component"
  fi
done

if ! has_version trunk "$TRUNK_VERSION"; then
  # trunk 0.22 needs a newer rustc than the toolchain this project builds with; 0.21.14 is the
  # newest release that builds with it.
  say "installing trunk $TRUNK_VERSION (about 5 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked || die "cargo install trunk $TRUNK_VERSION failed"
fi

if ! has_version wasm-bindgen "$WASM_BINDGEN_VERSION"; then
  # Without --locked on purpose: its lockfile names a webpki-roots the registry lacks.
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
    || die "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION failed"
fi

# The splitter the page's build runs (scripts/build-split.mjs), from crates.io. It has no
# --version, so cargo's list of installed crates says which version is there.
if ! command -v wasm-split-cli >/dev/null 2>&1 \
   || ! cargo install --list 2>/dev/null | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm_split_cli_support $WASM_SPLIT_VERSION (about 2 minutes)"
  cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked \
    || die "cargo install wasm_split_cli_support $WASM_SPLIT_VERSION failed"
fi

# npm packages: binaryen (wasm-opt 132), CodeMirror and esbuild, Playwright (driver only, never
# its browsers), selenium-webdriver (for Debian's Firefox and WebKitGTK through their WebDriver
# servers) and axe-core (the accessibility audit the end-to-end tests run in the page).
if [ -L "$repo_root/node_modules" ]; then
  # A checkout (e.g. a git worktree) sharing another one's packages through a link: `npm ci`
  # would empty the other checkout's node_modules through it, so only check what is there.
  [ -x "$repo_root/node_modules/.bin/wasm-opt" ] && [ -d "$repo_root/node_modules/@playwright/test" ] \
    || die "node_modules links to a directory without the packages: run npm ci where it points"
elif [ ! -x "$repo_root/node_modules/.bin/wasm-opt" ] || [ ! -x "$repo_root/node_modules/.bin/esbuild" ] || [ ! -d "$repo_root/node_modules/@playwright/test" ] \
   || [ ! -d "$repo_root/node_modules/selenium-webdriver" ] \
   || [ ! -d "$repo_root/node_modules/axe-core" ] \
   || [ "$repo_root/package-lock.json" -nt "$repo_root/node_modules/.package-lock.json" ]; then
  say "installing npm packages"
  (cd "$repo_root" && npm ci --no-audit --no-fund) || die "npm ci failed"
fi
has_version wasm-opt "$WASM_OPT_VERSION" || die "wasm-opt $WASM_OPT_VERSION expected from npm binaryen; got: $(wasm-opt --version 2>&1 || true)"
# The editor's JavaScript (CodeMirror from npm), which the wasm build includes.
(cd "$repo_root" && node scripts/build-editor.mjs) || die "bundling the editor (scripts/build-editor.mjs) failed"

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  say "installing Debian chromium and chromium-driver"
  as_root apt-get update -qq || die "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null \
    || die "apt-get install chromium chromium-driver failed"
fi
has_version chromedriver "$(chromium --version 2>/dev/null | grep -oE '[0-9]+\.[0-9.]+' | head -1)" \
  || die "chromedriver does not match chromium: $(chromedriver --version) vs $(chromium --version)"

# Firefox for the DOM tests: Debian's ESR, and geckodriver built from crates.io (its releases are
# binaries on GitHub, which this project does not download).
if ! command -v firefox-esr >/dev/null 2>&1 && ! command -v firefox >/dev/null 2>&1; then
  say "installing Debian firefox-esr"
  as_root apt-get update -qq || die "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr >/dev/null \
    || die "apt-get install firefox-esr failed"
fi
if ! has_version geckodriver "$GECKODRIVER_VERSION"; then
  say "installing geckodriver $GECKODRIVER_VERSION (about 2 minutes)"
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked \
    || die "cargo install geckodriver $GECKODRIVER_VERSION failed"
fi

# WebKit, the engine of Safari, for its WebDriver walk: Debian's WebKitGTK driver (its library
# package brings MiniBrowser, the browser the driver starts) and Xvfb with xauth for `xvfb-run`,
# since MiniBrowser has no headless mode (xauth is only a recommendation of xvfb, so it is named).
webkit_minibrowser() { compgen -G '/usr/lib/*/webkit2gtk-4.1/MiniBrowser' | head -1; }
if ! command -v WebKitWebDriver >/dev/null 2>&1 || [ -z "$(webkit_minibrowser)" ] \
   || ! command -v xvfb-run >/dev/null 2>&1 || ! command -v xauth >/dev/null 2>&1; then
  say "installing Debian webkit2gtk-driver, xvfb and xauth"
  as_root apt-get update -qq || die "apt-get update failed"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq webkit2gtk-driver xvfb xauth >/dev/null \
    || die "apt-get install webkit2gtk-driver xvfb xauth failed"
fi
# WebKitWebDriver has no --version: the driver and the browser come from one source package, and
# must be of one version, as chromedriver and chromium must.
webkit_driver_version="$(dpkg-query -W -f='${Version}' webkit2gtk-driver 2>/dev/null || true)"
webkit_library_version="$(dpkg-query -W -f='${Version}' libwebkit2gtk-4.1-0 2>/dev/null || true)"
[ -n "$webkit_driver_version" ] && [ "$webkit_driver_version" = "$webkit_library_version" ] \
  || die "webkit2gtk-driver ($webkit_driver_version) does not match libwebkit2gtk-4.1-0 ($webkit_library_version)"
WEBKIT_MINIBROWSER="$(webkit_minibrowser)" || die "no MiniBrowser under /usr/lib/*/webkit2gtk-4.1/ (libwebkit2gtk-4.1-0 ships it)"
export WEBKIT_MINIBROWSER
