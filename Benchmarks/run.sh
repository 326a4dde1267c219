#!/usr/bin/env bash
# Runs every workload for every library in one invocation and prints the side-by-side table and the
# ratios against issue 10's targets, with the naive reference beside the peers (markdown, ready for
# BENCHMARKS.md).
#
#   Benchmarks/run.sh              # everything (about 5 minutes on 2 busy cores, plus the first build)
#   Benchmarks/run.sh W1 W4        # only these workloads (all libraries)
#   Benchmarks/run.sh 'W5\..*'     # any regular expression, matched against the WHOLE benchmark name
#
# The raw harness output and the summary are kept in Benchmarks/Results/ (named after the time and the
# commit). Single benchmarks can also be run directly, from Benchmarks/:
#   swift package benchmark --target FuturesBenchmarks --filter 'W1\..*'
set -euo pipefail
cd "$(dirname "$0")"

filters=()
for arg in "$@"; do
    if [[ "$arg" =~ ^[A-Za-z0-9]+$ ]]; then
        filters+=(--filter "${arg}\\..*")
    else
        filters+=(--filter "$arg")
    fi
done

commit=$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)
if ! git -C .. diff --quiet HEAD -- Sources 2>/dev/null; then commit="${commit}-dirty"; fi
stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p Results
raw="Results/${stamp}-${commit}.raw.md"
summary="Results/${stamp}-${commit}.md"

swift package benchmark --target FuturesBenchmarks --format markdown --no-progress "${filters[@]}" >"$raw"

{
    echo "Run ${stamp} on commit ${commit}: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(swift --version 2>/dev/null | head -1)"
    echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo
    python3 scripts/summarize.py "$raw"
} >"$summary"
cat "$summary"
echo
echo "raw harness output: Benchmarks/$raw"
echo "summary:            Benchmarks/$summary"
