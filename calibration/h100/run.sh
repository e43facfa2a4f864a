#!/usr/bin/env bash
# Builds and runs the timing microbenchmarks on an H100, keeping what the GPU ran beside what it
# measured: raw.csv (thread-0 cycles per kernel and input), timeline.csv (every lane's clock
# reads in the tl_ kernels, relative to lane 0's first), micro.sm_90.sass (nvdisasm -c of the
# same build, read by the fit to count each timed region's instructions) and machine.txt.
#   bash calibration/h100/run.sh OUTDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
cd "$here"
flags=(-O3 -arch=sm_90 -diag-suppress 550,177)
nvcc "${flags[@]}" -o /tmp/micro micro.cu
nvcc "${flags[@]}" -cubin -o /tmp/micro.cubin micro.cu
nvdisasm -c /tmp/micro.cubin > "$out/micro.sm_90.sass"
{ nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; } > "$out/machine.txt"
/tmp/micro > "$out/raw.csv" 2> /tmp/timeline.txt
{ echo "kernel,pattern,x,lane,point,cycles"; grep '^timeline,' /tmp/timeline.txt | cut -d, -f2-; } > "$out/timeline.csv"
