#!/usr/bin/env bash
# The wasm facade's tests (web/tests/*.rs, #[wasm_bindgen_test]) built for wasm32 and run in Node
# by wasm-bindgen-test-runner, the CLI pinned by scripts/setup.sh: what `wasm-pack test --node`
# did, without wasm-pack. Extra arguments go to cargo test (a test's name, say).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export WASM_BINDGEN_TEST_ONLY_NODE=1
# No -q: cargo forwards it to the runner, which refuses it.
cargo test --profile wasm-test --target wasm32-unknown-unknown -p warpscope-web "$@"
