#!/usr/bin/env bash
# interleave.sh: compare pipeline binaries on one input, runs interleaved.
#
#   bench/interleave.sh INPUT RUNS BINARY... [-- FLAGS...]
#
# Runs every BINARY (built from ./pipelines/sentences, e.g. one from the
# base commit and one from the change) RUNS times on INPUT, in turn, so that
# the machine's drift hits them all alike, and prints each one's minimum and
# median wall time and its minimum CPU time. FLAGS after -- go to every run.
# Outputs go to a temporary directory, removed at the end.
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
input=$1 runs=$2
shift 2
bins=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  bins+=("$1")
  shift
done
[ "${1:-}" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

TIMEFORMAT='%R %U %S'
for r in $(seq 1 "$runs"); do
  for i in "${!bins[@]}"; do
    # The time keyword reports on stderr; the run's own output goes to a log.
    if ! { time "${bins[$i]}" --input "$input" --output "$work/out" --run_id "r$r-b$i" "$@" >"$work/log" 2>&1; } 2>>"$work/times.$i"; then
      echo "interleave.sh: ${bins[$i]} failed on $input:" >&2
      tail -5 "$work/log" >&2
      exit 1
    fi
    rm -rf "$work/out/r$r-b$i"
  done
done
for i in "${!bins[@]}"; do
  sort -n "$work/times.$i" | awk -v b="${bins[$i]}" '
    { w[NR] = $1; c = $2 + $3; if (NR == 1 || c < cmin) cmin = c }
    END { printf "%s: wall min %.2f s, median %.2f s; CPU min %.2f s (%d runs)\n", b, w[1], w[int((NR + 1) / 2)], cmin, NR }'
done
