#!/usr/bin/env bash
# Sets up whatever is missing, then builds and serves WAVE Playground at http://127.0.0.1:8080,
# rebuilding on every change. By default it serves the optimised build visitors get; `--dev`
# serves a debug build, which rebuilds faster.
# Usage: scripts/serve.sh [--dev] [more trunk serve options]
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

profile=(--release)
if [ "${1:-}" = "--dev" ]; then
  profile=()
  shift
fi

if (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; then
  echo "[serve] error: something already listens on 127.0.0.1:8080; stop it first (a stale trunk serve?)" >&2
  exit 1
fi
echo "[serve] building; the playground is at http://127.0.0.1:8080 when trunk reports the server is up" >&2
exec trunk serve --offline "${profile[@]}" "$@"
