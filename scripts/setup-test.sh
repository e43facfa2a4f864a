#!/usr/bin/env bash
# What the test command needs beyond building and serving (scripts/setup.sh, sourced first).
# Idempotent, as setup.sh is.
#   rustfmt and clippy
#   Chromium from apt (Playwright's own browser download is not reachable here)
#   NVIDIA's nvcc 13.5.37 from PyPI in .tools/nvcc (scripts/nvcc.sh: the corpus is valid CUDA;
#   core/tests/ptx_differential.rs and the CLI's --nvcc test compile with it)
#   NVRTC 12.9 from PyPI in .tools/cuda12 (scripts/cuda12.sh: CUDA 12's PTX of the corpus)
# The long fuzz run's nightly toolchain and cargo-fuzz are scripts/fuzz.sh's own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh

if command -v rustup >/dev/null 2>&1; then
  installed=$(rustup component list --installed 2>/dev/null)
  for component in rustfmt clippy; do
    grep -q "^$component" <<<"$installed" || { log "adding $component"; rustup component add "$component"; }
  done
fi

if ! command -v chromium >/dev/null 2>&1; then
  log "installing chromium from apt"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

# A real CUDA compiler (no GPU needed); skipped when the pinned versions are there.
bash scripts/nvcc.sh >/dev/null
bash scripts/cuda12.sh
