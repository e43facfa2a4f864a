#!/usr/bin/env bash
# Builds the wasm facade into web/pkg (ES module + .d.ts) for the Vite app. wasm-opt is off in
# web/Cargo.toml: binaryen's optimiser made the engine slower in Chromium, and size is not the
# bottleneck here.
set -euo pipefail
cd "$(dirname "$0")/.."
wasm-pack build web --target web --release --out-dir pkg --no-pack --quiet
