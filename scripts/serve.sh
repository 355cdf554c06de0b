#!/usr/bin/env bash
# Sets up whatever is missing, then builds and serves WAVE Playground at http://127.0.0.1:8080
# (rebuilding on every change). Usage: scripts/serve.sh [--release]
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
# shellcheck source=scripts/setup.sh
source scripts/setup.sh

if (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; then
  echo "[serve] error: something already listens on 127.0.0.1:8080; stop it first (a stale trunk serve?)" >&2
  exit 1
fi
echo "[serve] building; the playground is at http://127.0.0.1:8080 when trunk reports the server is up" >&2
exec trunk serve --offline "$@"
