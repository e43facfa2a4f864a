#!/usr/bin/env bash
# Real SASS of the teaching corpus (core/tests/fixtures/sass/), written by NVIDIA's tools from
# PyPI (scripts/nvcc.sh installs them): `cuobjdump -sass` of every corpus kernel for sm_75 and
# sm_90, the same for every other architecture warpscope reads (sm_80 to sm_120) on a few
# kernels, and `nvdisasm` in its other forms (-c, -g with line info, -hex) on a few.
#   bash scripts/sass.sh check               fails when a committed file is not what the tools write
#   UPDATE_SASS=1 bash scripts/sass.sh check rewrites them
# A job (one compile and its disassemblies) whose inputs are what scripts/manifests/sass.sha256
# recorded is not run again (scripts/lib/manifest.sh; RERUN=1 runs every one).
set -euo pipefail
cd "$(dirname "$0")/.."

NVCC=$(bash scripts/nvcc.sh)
BIN=$(dirname "$NVCC")
OUT=core/tests/fixtures/sass
CORPUS=examples/corpus
FEW=(vector_add collatz_steps reduce_sequential warp_reduce_shfl_down)

log() { echo "sass: $*" >&2; }

TMP=$(mktemp -d)
# nvcc hashes the source's path into names, so each file is compiled from one fixed folder.
SRC=/tmp/warpscope-sass-src
exec 9>"$SRC.lock"
flock 9
trap 'rm -rf "$TMP" "$SRC"' EXIT
stale=()
count=0
ran=0
source scripts/lib/manifest.sh
# The tools and their versions are scripts/nvcc.sh's.
manifest_load scripts/manifests/sass.sha256 scripts/nvcc.sh

# keep MADE COMMITTED: the committed file must be what was made (UPDATE_SASS=1 writes it).
keep() {
  count=$((count + 1))
  if [ -n "${UPDATE_SASS:-}" ]; then
    mkdir -p "$(dirname "$2")"
    cp "$1" "$2"
  elif ! cmp -s "$1" "$2"; then
    stale+=("$2")
  fi
}

# made KEY MADE COMMITTED: what the tools wrote, recorded for the job and kept.
made() {
  record "$1" "$3" "$(file_sha "$2")"
  keep "$2" "$3"
}

# skip KEY COMMITTED...: true when the manifest vouches for every file of the job.
skip() {
  if fresh "$@"; then
    count=$((count + $# - 1))
    return 0
  fi
  ran=$((ran + 1))
  return 1
}

# cubin NAME ARCH [flags]: $TMP/NAME.ARCH.cubin from the corpus file.
cubin() {
  local name=$1 arch=$2
  shift 2
  rm -rf "$SRC" && mkdir -p "$SRC" && cp "$CORPUS/$name.cu" "$SRC/"
  (cd "$SRC" && "$NVCC" -O3 -arch="$arch" -cubin "$@" -o "$TMP/$name.$arch.cubin" "$name.cu")
}

# cuobjdump_job NAME ARCH: `cuobjdump -sass` of the corpus file's cubin for ARCH.
cuobjdump_job() {
  local name=$1 arch=$2 key
  key=$(job_key "cuobjdump $arch" "$CORPUS/$name.cu")
  skip "$key" "$OUT/$arch/$name.sass" && return 0
  cubin "$name" "$arch"
  "$BIN/cuobjdump" -sass "$TMP/$name.$arch.cubin" >"$TMP/$name.$arch.sass"
  made "$key" "$TMP/$name.$arch.sass" "$OUT/$arch/$name.sass"
}

for cu in "$CORPUS"/*.cu; do
  name=$(basename "$cu" .cu)
  for arch in sm_75 sm_90; do cuobjdump_job "$name" "$arch"; done
done
for name in "${FEW[@]}"; do
  for arch in sm_80 sm_86 sm_89 sm_100 sm_120; do cuobjdump_job "$name" "$arch"; done
  # nvdisasm's forms: the whole ELF, code only, with encodings (-hex), and with CUDA lines (-g,
  # from a -lineinfo cubin, whose line table would name this clone's folders in the whole ELF).
  key=$(job_key "nvdisasm forms sm_90" "$CORPUS/$name.cu")
  skip "$key" "$OUT"/{nvdisasm,nvdisasm-c,nvdisasm-g,nvdisasm-hex}/"$name.sass" && continue
  cubin "$name" sm_90
  c="$TMP/$name.sm_90.cubin"
  "$BIN/nvdisasm" "$c" >"$TMP/$name.nvdisasm.sass"
  "$BIN/nvdisasm" -c "$c" >"$TMP/$name.nvdisasm-c.sass"
  "$BIN/nvdisasm" -c -hex "$c" >"$TMP/$name.nvdisasm-hex.sass"
  cubin "$name" sm_90 -lineinfo
  "$BIN/nvdisasm" -c -g "$c" | sed -E 's|(//## File ")[^"]*/([^"/]*")|\1\2|' >"$TMP/$name.nvdisasm-g.sass"
  for form in nvdisasm nvdisasm-c nvdisasm-g nvdisasm-hex; do
    made "$key" "$TMP/$name.$form.sass" "$OUT/$form/$name.sass"
  done
done
# Kernels of the features real SASS needs (core/tests/sass_features.rs): cuobjdump (with
# -res-usage, which says the static shared memory) and nvdisasm of the whole cubin for sm_75 and sm_90, nvdisasm -c for sm_90 and nvcc's PTX, which the test
# runs beside them. A file's
# `(nvcc flags: ...)` comment adds flags.
FEATURES=$OUT/features
for cu in "$FEATURES"/*.cu; do
  name=$(basename "$cu" .cu)
  key=$(job_key "features" "$cu")
  skip "$key" "$FEATURES/$name".{sm_75.sass,sm_75.whole.sass,sm_90.sass,sm_90.whole.sass,sm_90.nvdisasm.sass,ptx} && continue
  read -r -a flags <<<"$(sed -n 's/.*(nvcc flags: \([^)]*\)).*/\1/p' "$cu")"
  rm -rf "$SRC" && mkdir -p "$SRC" && cp "$cu" "$SRC/"
  for arch in sm_75 sm_90; do
    (cd "$SRC" && "$NVCC" -O3 -arch="$arch" -cubin ${flags[@]+"${flags[@]}"} -o "$TMP/f_$name.$arch.cubin" "$name.cu")
    "$BIN/cuobjdump" -sass -res-usage "$TMP/f_$name.$arch.cubin" >"$TMP/f_$name.$arch.sass"
    made "$key" "$TMP/f_$name.$arch.sass" "$FEATURES/$name.$arch.sass"
    "$BIN/nvdisasm" "$TMP/f_$name.$arch.cubin" >"$TMP/f_$name.$arch.whole.sass"
    made "$key" "$TMP/f_$name.$arch.whole.sass" "$FEATURES/$name.$arch.whole.sass"
  done
  "$BIN/nvdisasm" -c "$TMP/f_$name.sm_90.cubin" >"$TMP/f_$name.nvdisasm.sass"
  made "$key" "$TMP/f_$name.nvdisasm.sass" "$FEATURES/$name.sm_90.nvdisasm.sass"
  (cd "$SRC" && "$NVCC" -O3 -arch=sm_90 -ptx ${flags[@]+"${flags[@]}"} -o "$TMP/f_$name.ptx" "$name.cu")
  made "$key" "$TMP/f_$name.ptx" "$FEATURES/$name.ptx"
done
# The H100 report's loop kernels (core/tests/sass_h100.rs), one function per file as
# `cuobjdump -fun` prints it.
H100=core/tests/fixtures/sass/h100
key=$(job_key "h100 loops" "$H100/bench_loops.cu")
if ! skip "$key" "$H100"/{single_loop,single_loop_nounroll,double_loop,double_loop_nounroll}.sass; then
  rm -rf "$SRC" && mkdir -p "$SRC" && cp "$H100/bench_loops.cu" "$SRC/"
  (cd "$SRC" && "$NVCC" -O3 -arch=sm_90 -cubin -o "$TMP/bench_loops.cubin" bench_loops.cu)
  for k in single_loop single_loop_nounroll double_loop double_loop_nounroll; do
    mangled="_Z$(printf '%s' "$k" | wc -c)${k}PKiPfPx"
    "$BIN/cuobjdump" -sass -fun "$mangled" "$TMP/bench_loops.cubin" >"$TMP/$k.sass"
    made "$key" "$TMP/$k.sass" "$H100/$k.sass"
  done
fi
# ...and the report's side-order question (section 2c), asked with the clock.
key=$(job_key "h100 side order" "$H100/bench_order.cu")
if ! skip "$key" "$H100/side_order.sass"; then
  rm -rf "$SRC" && mkdir -p "$SRC" && cp "$H100/bench_order.cu" "$SRC/"
  (cd "$SRC" && "$NVCC" -O3 -arch=sm_90 -cubin -o "$TMP/bench_order.cubin" bench_order.cu)
  "$BIN/cuobjdump" -sass "$TMP/bench_order.cubin" >"$TMP/side_order.sass"
  made "$key" "$TMP/side_order.sass" "$H100/side_order.sass"
fi
# The whole-launch kernels' sm_90 SASS (core/tests/grid.rs runs each beside its C), with CUDA
# lines as the gallery's.
mkdir -p examples/grid/sass
for cu in examples/grid/*.cu; do
  name=$(basename "$cu" .cu)
  key=$(job_key "grid sass sm_90 -lineinfo" "$cu")
  skip "$key" "examples/grid/sass/$name.sm_90.sass" && continue
  rm -rf "$SRC" && mkdir -p "$SRC" && cp "$cu" "$SRC/"
  (cd "$SRC" && "$NVCC" -O3 -arch=sm_90 -lineinfo -cubin -o "$TMP/grid_$name.cubin" "$name.cu")
  "$BIN/nvdisasm" -c -gi "$TMP/grid_$name.cubin" | sed -E '/\/\/##/ s|"[^"]*/([^"/]*")|"\1|g' >"$TMP/grid_$name.sass"
  made "$key" "$TMP/grid_$name.sass" "examples/grid/sass/$name.sm_90.sass"
done
for f in examples/grid/sass/*.sass; do
  [ -e "examples/grid/$(basename "$f" .sm_90.sass).cu" ] && continue
  if [ -n "${UPDATE_SASS:-}" ]; then rm "$f"; else stale+=("$f (no kernel)"); fi
done
# The gallery's SASS: nvcc's sm_90 code of every C example (nvdisasm -c -gi, so each instruction
# has its CUDA line, a header's inlined code the line it was inlined at), under the example's //@ lines with the parameters renamed (a to arg0),
# run under volta, and a title and note of its own (scripts/ptx_gallery_header.py ... sass). The
# manifest covers the tools' part; the header, from the CLI, is written again on every check.
GALLERY=examples/sass
mkdir -p "$GALLERY"
CLI=$(bash scripts/cli.sh)
for cu in examples/*.cu; do
  name=$(basename "$cu" .cu)
  out=$GALLERY/$name.sm_90.sass
  key=$(job_key "gallery sass sm_90 -lineinfo" "$cu")
  if fresh "$key" "body:$out"; then
    body_of "$out" >"$TMP/g_$name.body.sass"
  else
    ran=$((ran + 1))
    rm -rf "$SRC" && mkdir -p "$SRC" && cp "$cu" "$SRC/"
    (cd "$SRC" && "$NVCC" -O3 -arch=sm_90 -lineinfo -cubin -o "$TMP/g_$name.cubin" "$name.cu")
    if grep -q 'printf' "$cu"; then
      # printf's format strings are in the cubin's data: nvdisasm of the whole cubin, keeping
      # its code and the two data sections the reader takes (bank 4, the initialised globals).
      "$BIN/nvdisasm" -gi "$TMP/g_$name.cubin" | awk '/^\/\/-------/ { keep = ($2 ~ /^\.text\./ || $2 == ".nv.constant4" || $2 == ".nv.global.init") } keep' |
        sed -E '/\/\/##/ s|"[^"]*/([^"/]*")|"\1|g' >"$TMP/g_$name.body.sass"
    else
      "$BIN/nvdisasm" -c -gi "$TMP/g_$name.cubin" | sed -E '/\/\/##/ s|"[^"]*/([^"/]*")|"\1|g' >"$TMP/g_$name.body.sass"
    fi
    record "$key" "$out" "$(file_sha "$TMP/g_$name.body.sass")"
  fi
  python3 scripts/ptx_gallery_header.py "$cu" "$TMP/g_$name.body.sass" "$CLI" sass >"$TMP/g_$name.sass"
  cat "$TMP/g_$name.body.sass" >>"$TMP/g_$name.sass"
  keep "$TMP/g_$name.sass" "$out"
done
for f in "$GALLERY"/*.sass; do
  cu="examples/$(basename "$f" .sm_90.sass).cu"
  [ -e "$cu" ] && continue
  if [ -n "${UPDATE_SASS:-}" ]; then rm "$f"; else stale+=("$f (no C example)"); fi
done
if [ ${#stale[@]} -gt 0 ]; then
  log "the committed SASS is not what the tools write (UPDATE_SASS=1 bash scripts/sass.sh check rewrites it): ${stale[*]}"
  exit 1
fi
manifest_finish "${UPDATE_SASS:-}"
log "all $count SASS files are what nvcc, cuobjdump and nvdisasm write; $ran jobs ran, the manifest vouched for the rest"
