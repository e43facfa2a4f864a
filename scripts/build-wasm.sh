#!/usr/bin/env bash
# Builds the wasm facade into web/pkg (ES module + .d.ts) for the Vite app: cargo's release build
# for wasm32, then wasm-bindgen (the CLI pinned by scripts/setup.sh) for `--target web`. No
# wasm-opt: binaryen's optimiser made the engine slower in Chromium, and size is not the
# bottleneck here (docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --lib --target wasm32-unknown-unknown -p warpscope-web
wasm-bindgen --target web --out-dir web/pkg target/wasm32-unknown-unknown/release/warpscope_web.wasm
