#!/usr/bin/env bash
# NVIDIA's CUDA compiler from PyPI, in a venv under .tools/nvcc (gitignored), used to check that
# every kernel of examples/corpus is valid CUDA, and by core/tests/ptx_differential.rs, which
# finds it here (or at $NVCC). No GPU is needed to compile. Idempotent: a second
# run only compares the installed versions with the pins (../shared/TOOLCHAIN.md).
#   bash scripts/nvcc.sh             installs if needed, prints the path of nvcc
#   bash scripts/nvcc.sh check       also compiles every corpus file (-ptx, and -cubin for two) and
#                                    fails on any nvcc error, or when examples/corpus/ptx/ is not
#                                    what nvcc writes (UPDATE_PTX=1 rewrites it). A file whose
#                                    inputs are what scripts/manifests/nvcc.sha256 recorded is
#                                    not compiled again (scripts/lib/manifest.sh; RERUN=1 does)
# The licence is NVIDIA's: the tools stay in .tools/, only the PTX they write is committed.
set -euo pipefail
cd "$(dirname "$0")/.."

CUDA_VERSION=13.5.37
PACKAGES=(nvidia-cuda-nvcc nvidia-cuda-crt nvidia-cuda-runtime nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)
# CUDA's C++ libraries' headers (CCCL: <cooperative_groups.h> needs its nv/target), in the
# include/cccl folder nvcc's own nvcc.profile already searches; versioned apart from the compiler.
CCCL=nvidia-cuda-cccl==13.3.5.0.6
VENV=.tools/nvcc
ARCH=sm_90
# Compiled to a cubin as well (ptxas runs on them): one with shared memory and barriers, one
# with shuffles and votes.
CUBIN_FILES=(reduce_sequential.cu stream_compact_ballot.cu)

log() { echo "nvcc: $*" >&2; }

installed_ok() {
  [ -x "$VENV/bin/python" ] || return 1
  local have
  have=$("$VENV/bin/python" -m pip list --format=freeze 2>/dev/null) || return 1
  for p in "${PACKAGES[@]}"; do
    grep -qx "$p==$CUDA_VERSION" <<<"$have" || return 1
  done
  grep -qx "$CCCL" <<<"$have" || return 1
}

if ! installed_ok; then
  log "installing ${PACKAGES[*]} $CUDA_VERSION and $CCCL into $VENV (about 350 MB)"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PACKAGES[@]/%/==$CUDA_VERSION}" "$CCCL"
fi
BIN=$(echo "$PWD/$VENV"/lib/python3.*/site-packages/nvidia/cu13/bin)
NVCC="$BIN/nvcc"
[ -x "$NVCC" ] || { log "no nvcc at $NVCC"; exit 1; }
# nvcc finds ptxas and its headers beside itself; g++ from Debian is the host compiler.
if ! command -v g++ >/dev/null 2>&1; then
  log "installing g++ from apt (nvcc's host compiler)"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq g++ >/dev/null
fi

if [ "${1:-}" != check ]; then
  echo "$NVCC"
  exit 0
fi

CORPUS=examples/corpus
PTX_DIR=$CORPUS/ptx
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failed=()
stale=()
count=0
ran=0
source scripts/lib/manifest.sh
manifest_load scripts/manifests/nvcc.sha256

# Without the header lines that name the compiler build, so the PTX only changes with the kernel.
drop_build_lines() { grep -v '^// Compiler Build ID\|^// Cuda compilation tools\|^// Based on NVVM'; }

# nvcc names internal symbols (in -lineinfo's debug strings, say) with a hash of the source's
# path, so every file is compiled from one fixed folder: the PTX is the same in every clone.
# The lock keeps two checks from sharing it at once.
SRC=/tmp/warpscope-nvcc-src
exec 9>"$SRC.lock"
flock 9
rm -rf "$SRC"
mkdir -p "$SRC"

# compile CU OUT [nvcc flags...]: nvcc's PTX of CU, compiled as $SRC/NAME.cu, into $TMP/OUT.ptx.
compile() {
  local cu=$1 out=$2
  shift 2
  ran=$((ran + 1))
  cp "$cu" "$SRC/"
  if ! (cd "$SRC" && "$NVCC" -O3 -arch="$ARCH" -ptx "$@" -o "$TMP/$out.ptx" "$(basename "$cu")") 2>"$TMP/$out.err"; then
    failed+=("$cu")
    cat "$TMP/$out.err" >&2
    return 1
  fi
}

# keep MADE COMMITTED: the committed file must be what was made (UPDATE_PTX=1 writes it).
keep() {
  if [ -n "${UPDATE_PTX:-}" ]; then
    cp "$1" "$2"
  elif ! cmp -s "$1" "$2"; then
    stale+=("$2")
  fi
}

# ptx_job CU COMMITTED LABEL [nvcc flags...]: nvcc's PTX of CU, without the build lines, is the
# committed file; skipped when the manifest says it is.
ptx_job() {
  local cu=$1 out=$2 label=$3 key
  shift 3
  count=$((count + 1))
  key=$(job_key "ptx $ARCH $*" "$cu")
  fresh "$key" "$out" && return 0
  compile "$cu" "$label" "$@" || return 0
  drop_build_lines <"$TMP/$label.ptx" >"$TMP/$label.kept.ptx"
  record "$key" "$out" "$(file_sha "$TMP/$label.kept.ptx")"
  keep "$TMP/$label.kept.ptx" "$out"
}

# The corpus; -Werror all-warnings: a kernel that only compiles with warnings is not
# course-quality code.
mkdir -p "$PTX_DIR"
for cu in "$CORPUS"/*.cu; do
  name=$(basename "$cu" .cu)
  ptx_job "$cu" "$PTX_DIR/$name.ptx" "c_$name" -Werror all-warnings
done
for ptx in "$PTX_DIR"/*.ptx; do
  [ -e "$CORPUS/$(basename "$ptx" .ptx).cu" ] && continue
  if [ -n "${UPDATE_PTX:-}" ]; then rm "$ptx"; else stale+=("$ptx (no kernel)"); fi
done
# The gallery's PTX: nvcc's output for every C example (with -lineinfo, so each instruction has
# its CUDA line), below the example's //@ lines with the parameters renamed to PTX's positional
# names (a to arg0) and a title and a note of its own, which compares nvcc's code with warpscope's
# compile of the C as the CLI runs both. The .file path is cut to the file's name. The manifest
# covers nvcc's part; the header, from the CLI, is written again on every check.
GALLERY=examples/ptx
mkdir -p "$GALLERY"
CLI=$(bash scripts/cli.sh)
for cu in examples/*.cu; do
  name=$(basename "$cu" .cu)
  out=$GALLERY/$name.ptx
  count=$((count + 1))
  key=$(job_key "gallery ptx $ARCH -lineinfo" "$cu")
  if fresh "$key" "body:$out"; then
    body_of "$out" >"$TMP/g_$name.body.ptx"
  else
    compile "$cu" "g_$name" -lineinfo || continue
    drop_build_lines <"$TMP/g_$name.ptx" | sed -E 's|^(\s*\.file\s+[0-9]+\s+")[^"]*/([^"/]*")|\1\2|' >"$TMP/g_$name.body.ptx"
    record "$key" "$out" "$(file_sha "$TMP/g_$name.body.ptx")"
  fi
  python3 scripts/ptx_gallery_header.py "$cu" "$TMP/g_$name.body.ptx" "$CLI" >"$TMP/g_$name.kept.ptx"
  cat "$TMP/g_$name.body.ptx" >>"$TMP/g_$name.kept.ptx"
  keep "$TMP/g_$name.kept.ptx" "$out"
done
for ptx in "$GALLERY"/*.ptx; do
  cu="examples/$(basename "$ptx" .ptx).cu"
  [ -e "$cu" ] && continue
  if [ -n "${UPDATE_PTX:-}" ]; then rm "$ptx"; else stale+=("$ptx (no C example)"); fi
done
# The whole-launch kernels (core/tests/grid.rs runs nvcc's PTX of each beside its C).
mkdir -p examples/grid/ptx
for cu in examples/grid/*.cu; do
  name=$(basename "$cu" .cu)
  ptx_job "$cu" "examples/grid/ptx/$name.ptx" "grid_$name" -Werror all-warnings
done
for ptx in examples/grid/ptx/*.ptx; do
  [ -e "examples/grid/$(basename "$ptx" .ptx).cu" ] && continue
  if [ -n "${UPDATE_PTX:-}" ]; then rm "$ptx"; else stale+=("$ptx (no kernel)"); fi
done
# PTX test fixtures: kernels written to use what the corpus does not (core/tests/ptx_features.rs).
for cu in core/tests/fixtures/ptx/*.cu; do
  name=$(basename "$cu" .cu)
  ptx_job "$cu" "${cu%.cu}.ptx" "f_$name"
done
# ptxas accepts these (no output is kept): the manifest records only that it did.
for f in "${CUBIN_FILES[@]}"; do
  count=$((count + 1))
  key=$(job_key "cubin $ARCH" "$CORPUS/$f")
  fresh "$key" "$CORPUS/$f" && continue
  ran=$((ran + 1))
  if ! "$NVCC" -O3 -arch="$ARCH" -cubin -o "$TMP/$f.cubin" "$CORPUS/$f" 2>"$TMP/$f.cubin.err"; then
    failed+=("$CORPUS/$f (cubin)")
    cat "$TMP/$f.cubin.err" >&2
  else
    record "$key" "$CORPUS/$f" -
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  log "nvcc refused ${#failed[@]} of $count corpus files: ${failed[*]}"
  exit 1
fi
if [ ${#stale[@]} -gt 0 ]; then
  log "the committed PTX is not what nvcc writes (UPDATE_PTX=1 bash scripts/nvcc.sh check rewrites it): ${stale[*]}"
  exit 1
fi
manifest_finish "${UPDATE_PTX:-}"
log "all $count corpus and example files compile (-arch=$ARCH -ptx; -cubin for ${CUBIN_FILES[*]}); nvcc ran $ran times, the manifest vouched for the rest"
