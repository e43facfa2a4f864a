#!/usr/bin/env bash
# Prints the path of the warpscope CLI for the scripts and browser tests that run it: the test
# command's build ($WARPSCOPE_CLI, which scripts/test.sh sets after building the tests once), or
# else target/debug/warpscope, built here when missing or stale.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${WARPSCOPE_CLI:-}" ]; then
  echo "$WARPSCOPE_CLI"
  exit 0
fi
cargo build -q -p warpscope-cli
echo "$PWD/target/debug/warpscope"
