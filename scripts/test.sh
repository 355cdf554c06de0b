#!/usr/bin/env bash
# Sets up whatever is missing, then runs every test of WAVE Playground in order, failing fast.
# Usage: scripts/test.sh        (the README's test command; CI runs it through .ci/run)
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
# shellcheck source=scripts/setup.sh
source scripts/setup.sh || exit 1
set +e

passed=()
started_at=$SECONDS
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""; fi
}
trap stop_server EXIT

summary() {
  echo
  echo "──────── test summary ($((SECONDS - started_at)) s) ────────"
  for step in "${passed[@]}"; do echo "  ok    $step"; done
  if [ -n "${1:-}" ]; then echo "  FAIL  $1"; fi
  echo "summary: ${#passed[@]} passed, $([ -n "${1:-}" ] && echo 1 || echo 0) failed"
}

# step NAME COMMAND...: runs one step, records its time, stops everything on failure.
step() {
  local name="$1"; shift
  local step_started=$SECONDS
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  if "$@"; then
    passed+=("$name ($((SECONDS - step_started)) s)")
  else
    summary "$name"
    exit 1
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

end_to_end() {
  local port; port="$(free_port)" || return 1
  # One server: dist/ at the root, and the same files under a course site's sub-path.
  local site; site="$(mktemp -d)" || return 1
  for entry in "$repo_root"/dist/*; do ln -s "$entry" "$site/"; done
  mkdir -p "$site/courses/gpu"
  ln -s "$repo_root/dist" "$site/courses/gpu/wave"
  # The lesson packs the end-to-end tests open by a #pack= address, served as a course site would.
  ln -s "$repo_root/tests/e2e/packs" "$site/e2e-packs"
  python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
  server_pid=$!
  local url="http://127.0.0.1:$port/"
  export WAVE_PLAYGROUND_SUBPATH_URL="${url}courses/gpu/wave/"
  for _ in $(seq 1 50); do
    curl -sf "$url" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { echo "the static server for dist/ died" >&2; return 1; }
    sleep 0.1
  done
  WAVE_PLAYGROUND_URL="$url" playwright test
  local status=$?
  # Playwright drives only its own patched Firefox and WebKit (never downloaded here): Debian's
  # firefox-esr and WebKitGTK get the main walk through their WebDriver servers and
  # selenium-webdriver instead.
  if [ $status -eq 0 ]; then
    printf '\n\033[1m==> %s\033[0m\n' "end-to-end walk (Firefox, WebDriver)"
    WAVE_PLAYGROUND_URL="$url" GECKODRIVER="$(command -v geckodriver)" node --test tests/firefox/
    status=$?
  fi
  # WebKit's MiniBrowser has no headless mode: it gets a virtual X screen larger than the walk's
  # 1400 × 1000 window (xvfb-run's own default screen is narrower).
  if [ $status -eq 0 ]; then
    printf '\n\033[1m==> %s\033[0m\n' "end-to-end walk (WebKit, WebDriver)"
    WAVE_PLAYGROUND_URL="$url" WEBKIT_MINIBROWSER="$WEBKIT_MINIBROWSER" \
      xvfb-run -a -s "-screen 0 1600x1200x24" node --test tests/webkit/
    status=$?
  fi
  stop_server
  return $status
}

# The engine built for wasm32 as the page builds it (wasm SIMD, from .cargo/config.toml) must
# compute what the native engine does: the wasm runner runs each benchmark kernel at small sizes
# and compares with crates/wave-bench/wasm-runner/checksums.txt, which `cargo test` checks natively,
# and runs wasm's own `fma` pass on chosen edge cases against the exact per-lane rules; then all
# of it again with the page's relaxed-SIMD fma module lent to the engine, as Chromium lends it.
# Its own target directory, whatever CARGO_TARGET_DIR says, so that check.mjs finds the build.
wasm_runner_check() {
  env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS \
    cargo build --release --locked --target wasm32-unknown-unknown \
    --manifest-path crates/wave-bench/wasm-runner/Cargo.toml \
    --target-dir crates/wave-bench/wasm-runner/target &&
    node crates/wave-bench/wasm-runner/check.mjs
}

step "cargo fmt --check"              cargo fmt --all -- --check
step "crate ladder (no browser crate below the app)" bash scripts/check-layers.sh
step "clippy (native)"                cargo clippy --workspace --all-targets --locked -- -D warnings
step "clippy (wasm32)"                cargo clippy --workspace --all-targets --locked --target wasm32-unknown-unknown -- -D warnings
step "cargo test (native)"            cargo test --workspace --locked
step "wasm runner (simd128) = native engine" wasm_runner_check
step "browser tests (wasm-bindgen-test, headless Chromium)" \
                                      env CHROMEDRIVER="$(command -v chromedriver)" \
                                      cargo test -p wave-playground --locked --target wasm32-unknown-unknown
step "browser tests (wasm-bindgen-test, headless Firefox)" \
                                      env GECKODRIVER="$(command -v geckodriver)" \
                                      cargo test -p wave-playground --locked --target wasm32-unknown-unknown
step "trunk build --release"          trunk build --release --offline
# The page's wasm, gzipped: reported against the 300 KB budget, failing above a ceiling just
# over its size so that it cannot grow unnoticed (see the script).
step "page wasm size (ceiling 389,000 B gzipped)" node scripts/wasm-size.mjs --ceiling 389000
step "end-to-end (Playwright in Chromium, WebDriver in Firefox and WebKit)" end_to_end
summary
