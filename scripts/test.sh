#!/usr/bin/env bash
# Runs every test: formatting and lints; the Rust unit, property, golden and CLI tests; the no_std
# build of the core; a compile check of the benchmarks; the timing model's calibration; the teaching corpus through NVIDIA's nvcc;
# a short run of every fuzz target (20 s each, seeded from the committed corpora); the wasm
# facade's tests (as wasm, in Node); the front end's unit tests; and the browser end-to-end tests
# in headless Chromium against the built app. Installs what it needs first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
echo "== formatting (rustfmt.toml) and lints"
cargo fmt --all --check
cargo clippy -q --workspace --all-targets -- -D warnings
echo "== core builds without default features (no_std + alloc)"
cargo build -q -p warpscope-core --no-default-features
cargo build -q -p warpscope-core --no-default-features --features link
echo "== benchmarks compile"
cargo bench -q --no-run -p warpscope-core
echo "== the corpus is valid CUDA (nvcc -arch=sm_90 -ptx) and its committed PTX is current"
bash scripts/nvcc.sh check
echo "== CUDA 12's PTX of the corpus (NVRTC 12.9) is current"
bash scripts/cuda12.sh check
echo "== the real SASS fixtures are what nvcc, cuobjdump and nvdisasm write"
bash scripts/sass.sh check
echo "== the timing model's parameters are what the H100 microbenchmarks give (calibration/h100)"
bash scripts/calibrate-h100.sh check
echo "== Rust tests"
cargo test --workspace
echo "== fuzz smoke run (cargo-fuzz, 20 s per target; bash scripts/fuzz.sh 600 runs one to plateau)"
bash scripts/fuzz.sh 20
echo "== wasm facade tests (wasm-bindgen-test in Node)"
wasm-pack test --node web
echo "== app build (wasm, TypeScript check, Vite)"
bash scripts/build-wasm.sh
npm run -s build
echo "== front-end unit tests (Vitest)"
npx vitest run
echo "== browser tests (Playwright, headless Chromium)"
npx playwright test
