#!/usr/bin/env bash
# CUDA 12's PTX of every corpus kernel (core/tests/fixtures/cuda12/), so the PTX reader is held to
# what CUDA 12 writes as well as CUDA 13 (scripts/nvcc.sh). PyPI has no nvcc 12 driver, but it has
# NVRTC 12.9, the library form of the same device compiler: scripts/cuda12_ptx.py drives it.
# Installs it into .tools/cuda12 (gitignored, about 220 MB) when missing. Idempotent.
#   bash scripts/cuda12.sh check    fails when a committed file is not what NVRTC 12.9 writes
#   UPDATE_PTX=1 bash scripts/cuda12.sh check   rewrites them
# A kernel whose inputs are what scripts/manifests/cuda12.sha256 recorded is not compiled again
# (scripts/lib/manifest.sh; RERUN=1 does).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=12.9.86
VENV=.tools/cuda12
OUT=core/tests/fixtures/cuda12

log() { echo "cuda12: $*" >&2; }

have=$("$VENV/bin/python" -m pip list --format=freeze 2>/dev/null || true)
if ! grep -qx "nvidia-cuda-nvrtc-cu12==$VERSION" <<<"$have"; then
  log "installing nvidia-cuda-nvrtc-cu12 $VERSION into $VENV"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "nvidia-cuda-nvrtc-cu12==$VERSION"
fi
LIB=$(echo "$PWD/$VENV"/lib/python3.*/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12)
[ -f "$LIB" ] || { log "no libnvrtc at $LIB"; exit 1; }
[ "${1:-}" = check ] || exit 0

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
stale=()
count=0
ran=0
source scripts/lib/manifest.sh
manifest_load scripts/manifests/cuda12.sha256
for cu in examples/corpus/*.cu; do
  name=$(basename "$cu" .cu)
  count=$((count + 1))
  key=$(job_key "nvrtc $VERSION" "$cu" scripts/cuda12_ptx.py)
  fresh "$key" "$OUT/$name.ptx" && continue
  ran=$((ran + 1))
  # Without the lines that name the compiler build, as scripts/nvcc.sh keeps its PTX, and with
  # the .file path (NVRTC makes it absolute from the working folder) cut to the file's name, so
  # every clone writes the same text.
  "$VENV/bin/python" scripts/cuda12_ptx.py "$LIB" "$cu" | grep -v '^// Compiler Build ID\|^// Cuda compilation tools\|^// Based on NVVM' |
    sed -E 's|^(\s*\.file\s+[0-9]+\s+")[^"]*/([^"/]*")|\1\2|' >"$TMP/$name.ptx"
  record "$key" "$OUT/$name.ptx" "$(file_sha "$TMP/$name.ptx")"
  if [ -n "${UPDATE_PTX:-}" ]; then
    cp "$TMP/$name.ptx" "$OUT/$name.ptx"
  elif ! cmp -s "$TMP/$name.ptx" "$OUT/$name.ptx"; then
    stale+=("$OUT/$name.ptx")
  fi
done
for ptx in "$OUT"/*.ptx; do
  [ -e "examples/corpus/$(basename "$ptx" .ptx).cu" ] && continue
  if [ -n "${UPDATE_PTX:-}" ]; then rm "$ptx"; else stale+=("$ptx (no kernel)"); fi
done
if [ ${#stale[@]} -gt 0 ]; then
  log "the committed CUDA 12 PTX is not what NVRTC $VERSION writes (UPDATE_PTX=1 bash scripts/cuda12.sh check rewrites it): ${stale[*]}"
  exit 1
fi
manifest_finish "${UPDATE_PTX:-}"
log "all $count corpus kernels compile with NVRTC $VERSION and match $OUT; NVRTC ran $ran times, the manifest vouched for the rest"
