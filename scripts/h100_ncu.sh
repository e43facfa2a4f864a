#!/usr/bin/env bash
# Issue 49: Nsight Compute's numbers for the programs of examples/ncu on the H100, to hold the
# simulator's counts to: each program run plainly, then under ncu with the SourceCounters
# section and the five whole-launch metrics, exported as the raw page (the metrics of each
# launch) and the SASS source page (the counts of each instruction), whole and launch by launch.
#   here:   bash scripts/h100_ncu.sh build   (writes scratch/ncu/: the binaries, their
#           cuobjdump -sass, programs.txt and run.sh; NCU_PROGRAMS="a b" builds those alone)
#   device: bash scratch/ncu/run.sh          (scratch/ncu carried; writes $OUT/ncu.tgz, and the
#           .ncu-rep reports apart in $OUT/ncu_reports.tgz.part-* when together they pass 15 MiB)
#   here:   mkdir -p examples/ncu/gpu && tar -C examples/ncu/gpu -xzf ncu.tgz
# Per program PROG the archive holds PROG.stdout/.stderr/.status (the plain run), PROG.ncu.log
# and .ncu.status (the profile), PROG.raw.csv, PROG.source.csv (every launch) and
# PROG.source.N.csv (launch N, from 0), PROG.sass; beside them gpu.txt, ncu_version.txt,
# nvcc_version.txt and summary.txt. The run stops starting programs when NCU_DEADLINE_S
# (default 450) seconds have passed, so it ends inside 8 minutes; the probes go first.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "${1:-}" = build ] || { echo "usage: bash scripts/h100_ncu.sh build" >&2; exit 2; }
nvcc=$(bash scripts/nvcc.sh)
cuobjdump=$(dirname "$nvcc")/cuobjdump
[ -x "$cuobjdump" ] || { echo "h100_ncu: no cuobjdump beside $nvcc" >&2; exit 1; }
out=scratch/ncu
rm -rf "$out" && mkdir -p "$out"
"$nvcc" --version > "$out/nvcc_version.txt"
# The probes first: they are what the rule is read from if the device's time runs short.
names=$(ls examples/ncu/probe_*.cu; ls examples/ncu/*.cu | grep -v '/probe_')
if [ -n "${NCU_PROGRAMS:-}" ]; then
    names=$(for n in $NCU_PROGRAMS; do echo "examples/ncu/$n.cu"; done)
fi
: > "$out/programs.txt"
for f in $names; do
    name=$(basename "$f" .cu)
    # An absolute path in the line table, so ncu --import-source finds the file on the device
    # (the working tree sits at the same path there).
    "$nvcc" -O3 -arch=sm_90 -lineinfo -o "$out/$name" "$PWD/$f"
    "$cuobjdump" -sass "$out/$name" > "$out/$name.sass"
    echo "$name" >> "$out/programs.txt"
done
cat > "$out/run.sh" <<'RUN'
#!/usr/bin/env bash
# On the device (no network): each program of programs.txt run plainly, then under ncu; the
# exports and logs in one archive (the device returns a few files only). One program failing
# or hanging does not stop the rest.
set -u
cd "$(dirname "$0")"
here=$PWD
OUT=${OUT:-$here/out}
mkdir -p "$OUT"
DEADLINE=${NCU_DEADLINE_S:-450}
PROFILE_LIMIT=${NCU_TIMEOUT_S:-120}
METRICS=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum
kept=$(mktemp -d)
log() { echo "$*" | tee -a "$kept/summary.txt"; }
left() { echo $((DEADLINE - SECONDS)); }
# at_most LIMIT: LIMIT, or the seconds left before the deadline if fewer (5 at least: a
# timeout of 0 would be none).
at_most() { local l; l=$(left); [ "$l" -lt 5 ] && l=5; [ "$l" -lt "$1" ] && echo "$l" || echo "$1"; }

find_ncu() {
    local c
    if c=$(command -v ncu 2>/dev/null); then echo "$c"; return; fi
    for c in $(ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu \
                     /usr/local/cuda*/nsight-compute*/ncu /usr/local/NVIDIA-Nsight-Compute*/ncu 2>/dev/null | sort -V -r); do
        [ -x "$c" ] && { echo "$c"; return; }
    done
    timeout 20 find /opt /usr/local -name ncu -type f -perm -u+x 2>/dev/null | sort -V -r | head -1
}
NCU=$(find_ncu)

{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader; uname -r; } > "$kept/gpu.txt" 2>&1
if [ -n "$NCU" ]; then
    { echo "$NCU"; "$NCU" --version; } > "$kept/ncu_version.txt" 2>&1
else
    echo "no ncu found (PATH, /opt/nvidia/nsight-compute, /usr/local/cuda*)" > "$kept/ncu_version.txt"
fi
cp nvcc_version.txt programs.txt *.sass "$kept/" 2>/dev/null
log "GPU: $(head -1 "$kept/gpu.txt"); ncu: ${NCU:-none} $(grep -o 'Version [^ ]*' "$kept/ncu_version.txt" | head -1)"

for p in $(cat programs.txt); do
    t0=$SECONDS
    if [ "$(left)" -lt 30 ]; then
        echo skipped > "$kept/$p.status"
        log "$p: skipped, the deadline (${DEADLINE}s) is near"
        continue
    fi
    timeout -k 5 30 "./$p" > "$kept/$p.stdout" 2> "$kept/$p.stderr"
    echo $? > "$kept/$p.status"
    launches=0
    ncu_status=-
    if [ -n "$NCU" ]; then
        # The section gives the per-instruction counts; --metrics adds the five whole-launch ones.
        timeout -k 10 "$(at_most "$PROFILE_LIMIT")" "$NCU" --section SourceCounters --metrics "$METRICS" \
            --import-source yes -f -o "$kept/$p" "./$p" > "$kept/$p.ncu.log" 2>&1
        ncu_status=$?
        if [ ! -f "$kept/$p.ncu-rep" ] && grep -qi 'import-source\|unrecognised\|unrecognized\|unknown option' "$kept/$p.ncu.log" \
            && [ "$(left)" -gt 30 ]; then
            # An ncu that refuses --import-source: once more without it.
            timeout -k 10 "$(at_most "$PROFILE_LIMIT")" "$NCU" --section SourceCounters --metrics "$METRICS" \
                -f -o "$kept/$p" "./$p" >> "$kept/$p.ncu.log" 2>&1
            ncu_status="$ncu_status,retry $?"
        fi
        echo "$ncu_status" > "$kept/$p.ncu.status"
    fi
    if [ -f "$kept/$p.ncu-rep" ]; then
        rep=$kept/$p.ncu-rep
        # Base units: counts as plain numbers; without the option if this ncu lacks it.
        timeout 60 "$NCU" -i "$rep" --page raw --csv --print-units base > "$kept/$p.raw.csv" 2> "$kept/$p.raw.err" \
            || timeout 60 "$NCU" -i "$rep" --page raw --csv > "$kept/$p.raw.csv" 2>> "$kept/$p.raw.err"
        timeout 60 "$NCU" -i "$rep" --page source --print-source sass --csv > "$kept/$p.source.csv" 2> "$kept/$p.source.err"
        # One row per launch on the raw page, each starting with its quoted numeric ID.
        launches=$(grep -c '^"[0-9]' "$kept/$p.raw.csv")
        # The source page launch by launch, eight ncu processes at a time: ncu's launch filters
        # applied on import (unchecked: where this ncu ignores them there, each file holds what
        # PROG.source.csv holds, and its .err says why).
        if [ "$launches" -gt 1 ]; then
            for ((i = 0; i < launches; i++)); do
                [ "$(left)" -lt 15 ] && break
                timeout 60 "$NCU" -i "$rep" --page source --print-source sass --csv --launch-skip "$i" --launch-count 1 \
                    > "$kept/$p.source.$i.csv" 2> "$kept/$p.source.$i.err" &
                (( (i + 1) % 8 == 0 )) && wait
            done
            wait
        fi
        find "$kept" -maxdepth 1 -name "$p.*err" -empty -delete
    fi
    log "$p: run status $(cat "$kept/$p.status"), '$(tail -1 "$kept/$p.stdout" | cut -c1-60)'; ncu status $ncu_status, $launches launches; $((SECONDS - t0)) s"
done

log "all programs in ${SECONDS} s"
# ncu.tgz holds everything if it fits what the device returns (16 MiB a file); else the reports
# travel apart, in parts of 15 MiB (three at most: the device returns eight files).
tar -C "$kept" -czf "$OUT/ncu.tgz" .
if [ "$(stat -c %s "$OUT/ncu.tgz")" -gt $((15 * 1024 * 1024)) ]; then
    (cd "$kept" && tar -czf "$OUT/ncu_reports.tgz" ./*.ncu-rep)
    if [ "$(stat -c %s "$OUT/ncu_reports.tgz")" -le $((45 * 1024 * 1024)) ]; then
        split -b 15M "$OUT/ncu_reports.tgz" "$OUT/ncu_reports.tgz.part-"
        log "reports apart: $(ls "$OUT" | grep -c part-) parts (cat ncu_reports.tgz.part-* | tar -xz)"
    else
        log "reports dropped: $(du -h "$OUT/ncu_reports.tgz" | cut -f1) compressed, more than three parts"
    fi
    rm -f "$OUT/ncu_reports.tgz"
    rm -f "$kept"/*.ncu-rep
    tar -C "$kept" -czf "$OUT/ncu.tgz" .
fi
echo "done in ${SECONDS} s: $(ls "$OUT" | tr '\n' ' ')"
RUN
chmod +x "$out/run.sh"
ls "$out"
