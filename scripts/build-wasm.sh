#!/usr/bin/env bash
# Builds the wasm facade into web/pkg (ES module + .d.ts) for the Vite app. wasm-opt is off in
# web/Cargo.toml (wasm-pack would download binaryen); size is not the bottleneck here.
set -euo pipefail
cd "$(dirname "$0")/.."
wasm-pack build web --target web --release --out-dir pkg --no-pack --quiet
