#!/usr/bin/env bash
# What building and serving the app need, and nothing more (scripts/run.sh sources it; the test
# command adds the rest with scripts/setup-test.sh). Idempotent: it installs what is missing and
# skips what is there (a second run takes about a second). Versions are pinned where they must
# match each other; ../shared/TOOLCHAIN.md explains each pin.
#   Rust (rustup) with the wasm32 target
#   wasm-bindgen-cli 0.2.130 (must equal the wasm-bindgen crate in web/Cargo.toml)
#   Node packages from package-lock.json (npm ci, falling back to npm install)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

WASM_BINDGEN_VERSION=0.2.130

log() { echo "setup: $*" >&2; }

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    log "installing Rust with rustup"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
fi
cargo --version >/dev/null

if command -v rustup >/dev/null 2>&1; then
  rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || { log "adding the wasm32 target"; rustup target add wasm32-unknown-unknown; }
fi

# `--locked` fails for this wasm-bindgen-cli version (a locked dependency left the registry). It
# is installed as a debug build: compiling it takes half the time of a release build, and it
# still binds the app's wasm in about a second (docs/testing.md).
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about a minute)"
  cargo install -q --debug wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# Playwright drives the apt Chromium; its own browser download cannot be reached.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing Node packages"
  npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error
fi
