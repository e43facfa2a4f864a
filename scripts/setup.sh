#!/usr/bin/env bash
# Idempotent set-up shared by scripts/run.sh and scripts/test.sh: installs what is missing,
# skips what is there. Today the project needs only a Rust toolchain; the browser app's
# tools (wasm target, wasm-bindgen, Node packages, Chromium) join here when it lands.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "setup: installing Rust with rustup" >&2
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
fi
cargo --version >/dev/null
# Formatting and lint checks are part of the test command.
if command -v rustup >/dev/null 2>&1; then
  for component in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep -q "^$component" || rustup component add "$component"
  done
fi
