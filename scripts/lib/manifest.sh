# Sourced by the scripts that check committed compiler output (nvcc.sh, cuda12.sh, sass.sh): a
# job (one tool run over input files) whose inputs hash to what the committed manifest recorded,
# and whose committed output still hashes to what it recorded, need not run again. Its output can
# only be what it was: the key covers the script that runs the tools and the one that pins their
# versions, this file, the job's flags and every input file's bytes. (The host g++ that nvcc
# preprocesses with is Debian's and not in the key: it does not change the device code.)
#
# A manifest line is `KEY SHA PATH`: the job's key, the sha256 of what the tool wrote to PATH (its
# body below any `//@` lines, for a gallery file whose header the CLI writes), or `-` for a job
# checked only for success. RERUN=1 ignores the manifest and runs every job.
#
#   manifest_load FILE [SCRIPT...] before the jobs; SCRIPTs (the one that pins the tools, when
#                                 another does) go into every key too
#   key=$(job_key LABEL FILE...)  a job's key
#   fresh KEY [body:]PATH...      true, and recorded again, when the job need not run
#   record KEY PATH SHA           what a job that ran wrote
#   manifest_finish UPDATE        writes the manifest (UPDATE non-empty) or fails when it is stale

declare -A manifest_key=() manifest_sha=() made_key=() made_sha=()
MANIFEST=
MANIFEST_SCRIPT_SHA=

manifest_load() {
  MANIFEST=$1
  shift
  MANIFEST_SCRIPT_SHA=$(cat "scripts/$(basename "$0")" "${BASH_SOURCE[0]}" "$@" | sha256sum | cut -d' ' -f1)
  [ -f "$MANIFEST" ] || return 0
  local k s p
  while read -r k s p; do
    manifest_key[$p]=$k
    manifest_sha[$p]=$s
  done <"$MANIFEST"
}

job_key() {
  local label=$1 f
  shift
  {
    printf '%s\n%s\n' "$MANIFEST_SCRIPT_SHA" "$label"
    for f in "$@"; do
      printf '%s %s\n' "$f" "$(wc -c <"$f")"
      cat "$f"
    done
  } | sha256sum | cut -d' ' -f1
}

# The sha256 of a file, or of its body: the lines after the leading `//@` header.
file_sha() { sha256sum <"$1" | cut -d' ' -f1; }
body_of() { awk 'body || !/^\/\/@/ { body = 1; print }' "$1"; }
body_sha() { body_of "$1" | sha256sum | cut -d' ' -f1; }

fresh() {
  local key=$1 spec path sha
  shift
  [ -z "${RERUN:-}" ] || return 1
  for spec in "$@"; do
    path=${spec#body:}
    [ "${manifest_key[$path]:-}" = "$key" ] && [ -f "$path" ] || return 1
    if [ "${manifest_sha[$path]}" != - ]; then
      if [ "$spec" != "$path" ]; then sha=$(body_sha "$path"); else sha=$(file_sha "$path"); fi
      [ "$sha" = "${manifest_sha[$path]}" ] || return 1
    fi
  done
  for spec in "$@"; do
    path=${spec#body:}
    record "$key" "$path" "${manifest_sha[$path]}"
  done
}

record() { made_key[$2]=$1; made_sha[$2]=$3; }

manifest_finish() {
  local update=$1 p
  local made
  made=$(for p in "${!made_key[@]}"; do printf '%s %s %s\n' "${made_key[$p]}" "${made_sha[$p]}" "$p"; done | LC_ALL=C sort -k3,3)
  if [ -n "$update" ]; then
    mkdir -p "$(dirname "$MANIFEST")"
    printf '%s\n' "$made" >"$MANIFEST"
  elif [ "$made" != "$(cat "$MANIFEST" 2>/dev/null)" ]; then
    echo "$MANIFEST is not what the jobs' inputs give (an input changed but not its output, or a job was added or removed): run this check with its UPDATE variable set to record them, so the next run skips them" >&2
    return 1
  fi
}
