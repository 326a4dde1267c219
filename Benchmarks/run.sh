#!/usr/bin/env bash
# Runs every workload for every library in one invocation and prints the side-by-side table, the ratios
# against issue 10's targets with the naive reference beside the peers, and the goals of the one path
# (markdown, ready for BENCHMARKS.md).
#
#   Benchmarks/run.sh              # everything (about 5 minutes on 2 busy cores, plus the first build)
#   Benchmarks/run.sh W1 W4        # only these workloads (all libraries)
#   Benchmarks/run.sh 'W5\..*'     # any regular expression, matched against the WHOLE benchmark name
#   Benchmarks/run.sh --goals      # only the benchmarks the goals of the one path compare (GOALS in
#                                  # scripts/summarize.py): about 2 minutes
#   Benchmarks/run.sh --rounds 3 --goals   # the same set 3 times in a row, then the goals merged over the
#                                          # runs: per cell the median ratio, the spread (min–max), in how
#                                          # many runs the goal held, and each run's load average
#
# --rounds N works with any filters. Every run keeps its raw harness output and its summary in
# Benchmarks/Results/ (named after the time and the commit); the raw file starts and ends with the load
# average at that moment. With --rounds, the merged table goes to Results/<first run's name>.rounds.md
# (`python3 scripts/summarize.py --rounds RAW...` redoes it from the raw files).
# Single benchmarks can also be run directly, from Benchmarks/:
#   swift package benchmark --target FuturesBenchmarks --filter 'W1\..*'
set -euo pipefail
cd "$(dirname "$0")"

# The benchmarks behind the goals of the one path: each cell's Futures benchmark and its references.
goal_filters=(
    'W1One\.(Futures|Closure|NIO|Objects)' 'W1\.(Futures|NIO|Objects)' 'W2s\.(Futures|NIO)'
    'W2One\.(Futures|AsyncAwait|Closure)' '(W3a|W3b|W5|W6)\.(Futures|Naive)' 'W4(Completed)?\.Futures'
)

rounds=1
filters=()
while [[ $# -gt 0 ]]; do
    case "$1" in
    --rounds)
        rounds="${2:?--rounds needs a number}"
        [[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds needs a positive number, not '$rounds'" >&2; exit 64; }
        shift 2
        ;;
    --goals)
        for filter in "${goal_filters[@]}"; do filters+=(--filter "$filter"); done
        shift
        ;;
    *)
        if [[ "$1" =~ ^[A-Za-z0-9]+$ ]]; then
            filters+=(--filter "${1}\\..*")
        else
            filters+=(--filter "$1")
        fi
        shift
        ;;
    esac
done

commit=$(git -C .. rev-parse --short HEAD 2>/dev/null || echo unknown)
if ! git -C .. diff --quiet HEAD -- Sources 2>/dev/null; then commit="${commit}-dirty"; fi
machine="$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(swift --version 2>/dev/null | head -1)"
mkdir -p Results

raws=()
for ((round = 1; round <= rounds; round++)); do
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    raw="Results/${stamp}-${commit}.raw.md"
    summary="Results/${stamp}-${commit}.md"
    [[ $rounds -gt 1 ]] && echo "run ${round} of ${rounds}: Benchmarks/$raw" >&2
    {
        echo "Load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo
        swift package benchmark --target FuturesBenchmarks --format markdown --no-progress "${filters[@]}"
        echo
        echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
    } >"$raw"
    raws+=("$raw")
    {
        echo "Run ${stamp} on commit ${commit}: ${machine}"
        grep '^Load average at the' "$raw"
        echo
        python3 scripts/summarize.py "$raw"
    } >"$summary"
    if [[ $rounds -eq 1 ]]; then
        cat "$summary"
        echo
        echo "raw harness output: Benchmarks/$raw"
        echo "summary:            Benchmarks/$summary"
    fi
done

if [[ $rounds -gt 1 ]]; then
    merged="${raws[0]%.raw.md}.rounds.md"
    {
        echo "${rounds} runs on commit ${commit}: ${machine}"
        echo
        python3 scripts/summarize.py --rounds "${raws[@]}"
    } >"$merged"
    cat "$merged"
    echo
    for raw in "${raws[@]}"; do echo "run summary: Benchmarks/${raw%.raw.md}.md"; done
    echo "merged:            Benchmarks/$merged"
fi
