#!/usr/bin/env bash
# Every model on the same work (issue 21's table): runs core/benches/models.rs and prints, per
# model, warp instructions per second (mimd: thread instructions) and the ratio to kepler, as a
# markdown table for docs/performance.md. Extra arguments go to criterion (e.g.
# `--measurement-time 5`). The bench also prints each model's recorded bytes per step.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench -p warpscope-core --bench models -- "$@"
dir="${CARGO_TARGET_DIR:-target}/criterion/model_sweep"
node - "$dir" <<'JS'
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const order = ['kepler', 'pdom', 'pdom-ssy', 'struct', 'tf-stack', 'tf-sandy', 'volta', 'mimd'];
const rate = (m) => {
  const bench = JSON.parse(fs.readFileSync(path.join(dir, m, 'new', 'benchmark.json'), 'utf8'));
  const est = JSON.parse(fs.readFileSync(path.join(dir, m, 'new', 'estimates.json'), 'utf8'));
  return { n: bench.throughput.Elements, perSecond: bench.throughput.Elements / (est.median.point_estimate / 1e9) };
};
const kepler = rate('kepler').perSecond;
console.log('| model | warp instructions per sweep | M warp instructions/s (median) | vs kepler |');
console.log('|---|---|---|---|');
for (const m of order) {
  const r = rate(m);
  const name = m === 'mimd' ? 'mimd (thread instructions)' : m;
  console.log(`| ${name} | ${r.n.toLocaleString('en-US')} | ${(r.perSecond / 1e6).toFixed(1)} | ${(r.perSecond / kepler).toFixed(2)} |`);
}
JS
