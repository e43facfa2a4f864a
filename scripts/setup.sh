#!/usr/bin/env bash
# Idempotent set-up shared by scripts/run.sh and scripts/test.sh: installs what is missing,
# skips what is there (a second run takes about a second). Versions are pinned where they must
# match each other; ../shared/TOOLCHAIN.md explains each pin.
#   Rust (rustup) with rustfmt, clippy and the wasm32 target
#   wasm-bindgen-cli 0.2.130 (must equal the wasm-bindgen crate in web/Cargo.toml) and wasm-pack 0.15.1
#   a nightly toolchain and cargo-fuzz 0.13.2 (the fuzz smoke run; fuzz/ builds with sanitizers)
#   Chromium and chromedriver from apt (Playwright's own browser download is not reachable here)
#   Node packages from package-lock.json (npm ci, falling back to npm install)
#   NVIDIA's nvcc 13.5.37 from PyPI in .tools/nvcc (scripts/nvcc.sh: checks the corpus is valid CUDA;
#   core/tests/ptx_differential.rs compiles its generated kernels with it)
#   NVRTC 12.9 from PyPI in .tools/cuda12 (scripts/cuda12.sh: CUDA 12's PTX of the corpus)
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130
WASM_PACK_VERSION=0.15.1
CARGO_FUZZ_VERSION=0.13.2

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
  installed=$(rustup component list --installed 2>/dev/null)
  for component in rustfmt clippy; do
    grep -q "^$component" <<<"$installed" || { log "adding $component"; rustup component add "$component"; }
  done
  rustup target list --installed | grep -q '^wasm32-unknown-unknown$' || { log "adding the wasm32 target"; rustup target add wasm32-unknown-unknown; }
fi

# `--locked` fails for this wasm-bindgen-cli version (a locked dependency left the registry).
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_BINDGEN_VERSION" ]; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 4 minutes)"
  cargo install -q wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi
if [ "$(wasm-pack --version 2>/dev/null | cut -d' ' -f2)" != "$WASM_PACK_VERSION" ]; then
  log "installing wasm-pack $WASM_PACK_VERSION (about 2 minutes)"
  cargo install -q --locked wasm-pack --version "$WASM_PACK_VERSION" --force
fi

if command -v rustup >/dev/null 2>&1 && ! rustup toolchain list | grep -q '^nightly'; then
  log "installing a nightly toolchain (cargo-fuzz builds with it)"
  rustup toolchain install nightly --profile minimal
fi
if [ "$(cargo fuzz --version 2>/dev/null | cut -d' ' -f2)" != "$CARGO_FUZZ_VERSION" ]; then
  log "installing cargo-fuzz $CARGO_FUZZ_VERSION (under a minute)"
  cargo install -q --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION" --force
fi

if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
  log "installing chromium and chromedriver from apt"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# Playwright drives the apt Chromium; its own browser download cannot be reached.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  log "installing Node packages"
  npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error
fi

# A real CUDA compiler (no GPU needed) for the corpus check; skipped when the pinned version is there.
bash scripts/nvcc.sh >/dev/null
bash scripts/cuda12.sh
