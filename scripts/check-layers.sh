#!/usr/bin/env bash
# Fails when a lower rung of the crate ladder depends on a browser crate, directly or through
# another dependency: wave-engine is std only (plus `half`); wave-trace and wave-session are plain Rust.
# Run by scripts/test.sh; `cargo tree` reads Cargo.lock and needs no build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

forbidden='^(leptos|leptos_[a-z_]+|web-sys|js-sys|wasm-bindgen|wasm-bindgen-[a-z-]+|gloo|gloo-[a-z-]+)$'
status=0
for crate in wave-engine wave-trace wave-session; do
  # Every target (native and wasm32), normal and build dependencies: what ships with the crate.
  deps="$(cargo tree --locked -p "$crate" --target all -e normal,build --prefix none --format '{p}' \
            | awk '{print $1}' | sort -u)"
  found="$(grep -E "$forbidden" <<<"$deps" || true)"
  if [ -n "$found" ]; then
    echo "error: $crate depends on browser crates: $(tr '\n' ' ' <<<"$found")" >&2
    echo "       see ARCHITECTURE.md, 'Architecture invariant'; move browser code to the app crate" >&2
    status=1
  else
    echo "$crate: $(wc -l <<<"$deps") crates in its tree, none of them a browser crate"
  fi
done
exit $status
