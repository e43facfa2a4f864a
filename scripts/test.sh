#!/usr/bin/env bash
# Runs every test, in stages (docs/testing.md says what each checks and its budget), then prints
# a table of each stage's seconds. Installs what it needs first (scripts/setup-test.sh).
#   bash scripts/test.sh                every stage
#   bash scripts/test.sh STAGE...       those (after the set-up) and the stages they need, e.g.
#                                       `bash scripts/test.sh rust e2e` also builds the tests, the wasm and the app
#   bash scripts/test.sh list           the stages, one a line
# The crate is built once per profile: the native tests once (the CLI that the tool checks and the
# browser tests run comes from that build), the wasm engine once in release.
set -euo pipefail
cd "$(dirname "$0")/.."

# name|what it checks (the table's second column)
STAGES=(
  "lint|formatting (rustfmt.toml) and clippy over every target, benches and the fuzz targets included"
  "nostd|the core type-checks without default features (no_std + alloc), and with links"
  "build|the native tests and the CLI, built once"
  "rust|Rust tests (unit, property, golden, CLI, fuzz corpora and saved crashes); beside them, the H100 calibration"
  "tools|nvcc, NVRTC 12, cuobjdump and nvdisasm still give the committed files (a manifest skips unchanged inputs)"
  "wasm|the wasm engine (release) for the app, and the facade's tests as wasm (debug) in Node"
  "app|TypeScript check and Vite build of the app"
  "unit|front-end unit tests (Vitest)"
  "e2e|browser tests (Playwright, headless Chromium, 2 workers)"
)

stage_lint() {
  cargo fmt --all --check
  cargo fmt --manifest-path fuzz/Cargo.toml --check
  cargo clippy -q --workspace --all-targets -- -D warnings
  # The fuzz targets are their own workspace (scripts/fuzz.sh builds them with nightly): checked
  # here on stable, so a change to the core's checks cannot leave them broken unseen.
  cargo clippy -q --manifest-path fuzz/Cargo.toml --bins -- -D warnings
}

stage_nostd() {
  cargo check -q -p warpscope-core --no-default-features
  cargo check -q -p warpscope-core --no-default-features --features link
}

stage_build() {
  cargo test -q --workspace --no-run
}

# The calibration check is one thread for about a minute: it runs beside the tests, which leave
# a core idle much of the time (test binaries run one after another).
stage_rust() {
  local log calibration status=0
  log=$(mktemp)
  bash scripts/calibrate-h100.sh check >"$log" 2>&1 &
  calibration=$!
  cargo test --workspace || status=$?
  if [ "$status" -ne 0 ]; then
    kill "$calibration" 2>/dev/null || true
    wait "$calibration" 2>/dev/null || true
    rm -f "$log"
    return "$status"
  fi
  echo "== the timing model's parameters are what the H100 microbenchmarks give (calibration/h100)"
  wait "$calibration" || status=$?
  if [ "$status" -ne 0 ]; then cat "$log"; else tail -n 1 "$log"; fi
  rm -f "$log"
  return "$status"
}

stage_tools() {
  bash scripts/nvcc.sh check
  bash scripts/cuda12.sh check
  bash scripts/sass.sh check
}

stage_wasm() {
  bash scripts/build-wasm.sh
  # In debug: the one run of the core on a 32-bit target with overflow checks and debug assertions.
  bash scripts/test-wasm.sh
}

stage_app() {
  npm run -s build
}

stage_unit() {
  npx vitest run
}

stage_e2e() {
  npx playwright test
}

# What a stage needs before it (run as well when only it is asked for): the CLI of the test
# build, the wasm package, the built app.
needs() {
  case $1 in
    rust | tools) echo build ;;
    app | unit) echo wasm ;;
    e2e) echo build wasm app ;;
  esac
}

names=()
for s in "${STAGES[@]}"; do names+=("${s%%|*}"); done
if [ "${1:-}" = list ]; then
  for s in "${STAGES[@]}"; do printf '%-6s %s\n' "${s%%|*}" "${s#*|}"; done
  exit 0
fi
asked=("$@")
[ ${#asked[@]} -eq 0 ] && asked=("${names[@]}")
selected=()
for s in "${asked[@]}"; do
  [[ " ${names[*]} " == *" $s "* ]] || { echo "test: no stage '$s' (bash scripts/test.sh list names them)" >&2; exit 2; }
  # shellcheck disable=SC2207
  selected+=("$s" $(needs "$s"))
done

# The table, printed however the run ends: each stage run, its seconds and how it ended.
rows=()
began=$(date +%s)
current=
stage_began=$began
row() { printf '%-6s %6d  %s' "$1" "$(($(date +%s) - stage_began))" "$2"; }
table() {
  local status=$?
  # The stage running when the run ended is the one that failed.
  [ -n "$current" ] && rows+=("$(row "$current" FAILED)")
  echo
  echo "== stages (seconds; docs/testing.md has each stage's budget)"
  printf '%-6s %6s  %s\n' stage s result
  for r in "${rows[@]}"; do printf '%s\n' "$r"; done
  printf '%-6s %6d  %s\n' total "$(($(date +%s) - began))" "$([ "$status" -eq 0 ] && echo passed || echo FAILED)"
}
trap table EXIT

# run NAME DESCRIPTION COMMAND...: one stage, timed; a failure ends the run (set -e) with its row.
run() {
  local name=$1 what=$2
  shift 2
  echo "== $name: $what"
  stage_began=$(date +%s)
  current=$name
  "$@"
  rows+=("$(row "$name" ok)")
  current=
}

setup() { source scripts/setup-test.sh; }
run setup "installs what is missing (scripts/setup-test.sh)" setup
# The CLI the tool checks and the browser tests run: the tests' own build (scripts/cli.sh).
export WARPSCOPE_CLI="$PWD/target/debug/warpscope"
for s in "${STAGES[@]}"; do
  name=${s%%|*}
  [[ " ${selected[*]} " == *" $name "* ]] || continue
  run "$name" "${s#*|}" "stage_$name"
done
