#!/usr/bin/env bash
# Runs every test: formatting and lints, unit, property, golden and CLI tests, the no_std build
# of the core, and a compile check of the benchmarks. Installs what it needs first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
echo "== formatting (rustfmt.toml) and lints"
cargo fmt --all --check
cargo clippy -q --workspace --all-targets -- -D warnings
echo "== core builds without default features (no_std + alloc)"
cargo build -q -p warpscope-core --no-default-features
echo "== benchmarks compile"
cargo bench -q --no-run -p warpscope-core
echo "== tests"
cargo test --workspace
