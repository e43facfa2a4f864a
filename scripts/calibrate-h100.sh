#!/usr/bin/env bash
# Turns the H100 microbenchmark results in calibration/h100/ (raw.csv, timeline.csv and the SASS
# the GPU ran, from calibration/h100/run.sh on the GPU) into the timing model's data file,
# core/data/h100_timing.txt. A test checks that the committed file is what this writes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run -q --release -p warpscope-cli -- calibrate calibration/h100 > core/data/h100_timing.txt.new
mv core/data/h100_timing.txt.new core/data/h100_timing.txt
echo "wrote core/data/h100_timing.txt"
