#!/usr/bin/env bash
# The whole programs of examples/programs on a real GPU: each built by nvcc for sm_90 exactly as
# written (its own main()), run, and its stdout, stderr and exit status kept.
# core/tests/programs.rs holds `warpscope program` to what the H100 printed.
#   here:   bash scripts/h100_programs.sh build   (writes scratch/programs/)
#   device: bash scratch/programs/run.sh          (scratch/programs carried; writes $OUT/NAME.*)
#   here:   the $OUT files go to examples/programs/h100/
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
    cat > scratch/programs/run.sh <<'RUN'
#!/usr/bin/env bash
# On the device: run each program, keep what it printed and its exit status.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/gpu.txt"
for p in *; do
    [ -x "$p" ] && [ "$p" != run.sh ] || continue
    set +e
    "./$p" > "$OUT/$p.stdout" 2> "$OUT/$p.stderr"
    echo $? > "$OUT/$p.status"
    set -e
done
ls "$OUT"
RUN
    chmod +x scratch/programs/run.sh
    ls scratch/programs
    ;;
*)
    echo "usage: bash scripts/h100_programs.sh build" >&2
    exit 2
    ;;
esac
