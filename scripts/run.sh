#!/usr/bin/env bash
# Builds warpscope and runs the default example (the paper's single loop at n = 2), printing its
# step-by-step trace and metrics. Extra arguments go to `warpscope trace`, e.g. `--set n=5`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo build --release -q -p warpscope-cli
example=examples/single_loop.sass
./target/release/warpscope trace "$example" "$@"
echo
./target/release/warpscope run "$example" "$@"
