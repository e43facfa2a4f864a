#!/usr/bin/env bash
# The buggy-kernel corpus of examples/sanitizer (each program as written and with -DFIXED) under
# compute-sanitizer's four tools on the H100, and the printf-order experiment of
# examples/experiments: what issue 48's checks and the device printf order are held to.
#   here:   bash scripts/h100_sanitizer.sh build [NAME...]   (writes scratch/order/; the NAMEs
#           alone, when given, of the corpus below)
#   device: bash scratch/order/run.sh              (scratch/order carried; writes $OUT/order.tgz)
#   here:   unpack: the sanitizer's files to examples/sanitizer/gpu/, printf_order.stdout to
#           examples/experiments/gpu/
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = build ] || { echo "usage: bash scripts/h100_sanitizer.sh build" >&2; exit 2; }
nvcc=$(bash scripts/nvcc.sh)
rm -rf scratch/order && mkdir -p scratch/order
"$nvcc" -O3 -arch=sm_90 -o scratch/order/printf_order examples/experiments/printf_order.cu
BUGS="reduce_missing_barrier barrier_in_branch uninitialised_shared off_by_one transpose_stale_tile warp_reduce_unsynced
      histogram_no_memset partial_copy misaligned syncwarp_two_sites"
shift
[ $# -gt 0 ] && BUGS="$*"
BUGS=$(echo $BUGS)
for b in $BUGS; do
    "$nvcc" -O3 -arch=sm_90 -lineinfo -o "scratch/order/$b" "examples/sanitizer/$b.cu"
    "$nvcc" -O3 -arch=sm_90 -lineinfo -DFIXED -o "scratch/order/$b.fixed" "examples/sanitizer/$b.cu"
done
cat > scratch/order/run.sh <<RUN
#!/usr/bin/env bash
# On the device: printf order, and compute-sanitizer's four tools on each program (a hang: 20 s).
cd "\$(dirname "\$0")"
kept=\$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "\$kept/gpu.txt"
./printf_order > "\$kept/printf_order.stdout" 2>&1
SAN=\$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for b in $BUGS; do
  for v in "\$b" "\$b.fixed"; do
    timeout 20 "./\$v" > "\$kept/\$v.stdout" 2>&1; echo \$? > "\$kept/\$v.status"
    for tool in memcheck racecheck initcheck synccheck; do
      timeout 120 "\$SAN" --tool \$tool --show-backtrace no "./\$v" > "\$kept/\$v.\$tool.txt" 2>&1
    done
  done
done
tar -C "\$kept" -czf "\$OUT/order.tgz" .
ls "\$kept" | wc -l
RUN
chmod +x scratch/order/run.sh
ls scratch/order
