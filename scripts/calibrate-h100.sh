#!/usr/bin/env bash
# Turns the H100 microbenchmark results in calibration/h100/ (raw.csv and the SASS
# the GPU ran, all from calibration/h100/run.sh on the GPU) into the timing model's data file,
# core/data/h100_timing.txt, and the table of every run's measured and predicted cycles,
# calibration/h100/residuals.csv.
#   bash scripts/calibrate-h100.sh          writes both
#   bash scripts/calibrate-h100.sh check    fails if either differs from what the fit gives
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$(bash scripts/cli.sh)" calibrate calibration/h100 --residuals "$tmp/residuals.csv" > "$tmp/h100_timing.txt"
if [ "${1:-}" = check ]; then
  diff -u core/data/h100_timing.txt "$tmp/h100_timing.txt"
  diff -u calibration/h100/residuals.csv "$tmp/residuals.csv"
  echo "the timing model's data file is what the H100 measurements give"
else
  cp "$tmp/h100_timing.txt" core/data/h100_timing.txt
  cp "$tmp/residuals.csv" calibration/h100/residuals.csv
  echo "wrote core/data/h100_timing.txt and calibration/h100/residuals.csv"
fi
