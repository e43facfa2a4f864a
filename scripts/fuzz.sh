#!/usr/bin/env bash
# Runs every cargo-fuzz target for SECONDS each (default 20). The test command does not run it:
# core/tests/fuzz_regressions.rs replays every committed corpus input and saved crash through the
# same checks on every test run; this is the search for new ones.
# The committed corpora (fuzz/corpus/<target>) are read as seeds and never written: new inputs
# go to a scratch directory, so a smoke run leaves the tree clean. A crash fails the run and
# leaves its input under fuzz/artifacts/<target>/ (turn it into a regression test).
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
CARGO_FUZZ_VERSION=0.13.2
# cargo-fuzz builds with nightly and sanitizers; both are this script's own, not the test command's.
if command -v rustup >/dev/null 2>&1 && ! rustup toolchain list | grep -q '^nightly'; then
  log "installing a nightly toolchain (cargo-fuzz builds with it)"
  rustup toolchain install nightly --profile minimal
fi
if [ "$(cargo fuzz --version 2>/dev/null | cut -d' ' -f2)" != "$CARGO_FUZZ_VERSION" ]; then
  log "installing cargo-fuzz $CARGO_FUZZ_VERSION (under a minute)"
  cargo install -q --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION" --force
fi
seconds=${1:-20}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(kernel_header assembler compiler ptx sass permalink load_and_run structure)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd fuzz
# -a: overflow checks and debug assertions on, so arithmetic that would wrap is found too.
cargo +nightly fuzz build -O -a
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t"
  echo "fuzz: $t for ${seconds}s"
  status=0
  cargo +nightly fuzz run -O -a "$t" "$scratch/$t" "corpus/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 >"$scratch/$t.log" 2>&1 || status=$?
  grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+ +DONE" "$scratch/$t.log" | sed 's/^/  /' || true
  if [ "$status" -ne 0 ]; then
    grep -E -A3 "panicked|ERROR|SUMMARY|Test unit written" "$scratch/$t.log" | head -30
    echo "fuzz: $t found a crash (its input is under fuzz/artifacts/$t/)"
    exit 1
  fi
done
