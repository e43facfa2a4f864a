#!/usr/bin/env bash
# The whole programs of examples/programs (and examples/corpus's) on a real GPU: each built by nvcc for sm_90 exactly as
# written (its own main()), run, and its stdout, stderr and exit status kept.
# core/tests/programs.rs holds `warpscope run` of each to what the GPU printed (an H100, or an
# H200: the same sm_90 SM; gpu.txt names the card).
#   here:   bash scripts/h100_programs.sh build   (writes scratch/programs/)
#   device: bash scratch/programs/run.sh          (scratch/programs carried; writes $OUT/programs.tgz)
#   here:   tar -C examples/programs/gpu -xzf programs.tgz
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
build)
    nvcc=$(bash scripts/nvcc.sh)
    rm -rf scratch/programs && mkdir -p scratch/programs
    for f in examples/programs/*.cu; do
        name=$(basename "$f" .cu)
        "$nvcc" -O3 -arch=sm_90 -o "scratch/programs/$name" "$f"
    done
    # The corpus's whole programs too, named apart from the course programs.
    for f in $(grep -l "int main" examples/corpus/*.cu); do
        name=corpus_$(basename "$f" .cu)
        "$nvcc" -O3 -arch=sm_90 -o "scratch/programs/$name" "$f"
    done
    cat > scratch/programs/run.sh <<'RUN'
#!/usr/bin/env bash
# On the device: run each program, keep what it printed and its exit status, in one archive
# (the device returns a few files only).
cd "$(dirname "$0")"
kept=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$kept/gpu.txt"
for p in *; do
    [ -x "$p" ] && [ "$p" != run.sh ] || continue
    set +e
    "./$p" > "$kept/$p.stdout" 2> "$kept/$p.stderr"
    echo $? > "$kept/$p.status"
    set -e
done
tar -C "$kept" -czf "$OUT/programs.tgz" .
ls "$kept"
RUN
    chmod +x scratch/programs/run.sh
    ls scratch/programs
    ;;
*)
    echo "usage: bash scripts/h100_programs.sh build" >&2
    exit 2
    ;;
esac
