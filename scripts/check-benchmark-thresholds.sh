#!/usr/bin/env bash
# Allocation gate: runs the Futures workloads (target FuturesAllocations: this package only, no
# SwiftNIO or OpenCombine to build) and checks their malloc counts against the checked-in thresholds
# in Benchmarks/Thresholds/. Exits non-zero when an allocation count regressed (p90 more than 3% above
# the threshold: one more malloc per operation is +5% or more on every workload but Streams.Map8).
#
#   scripts/check-benchmark-thresholds.sh           # check
#   scripts/check-benchmark-thresholds.sh --update  # after an intended change: rewrite the thresholds
#
# Only mallocCountTotal (every workload) and mallocBytesCount (the requested bytes, where a workload measures
# them: W5, W5Bare, Map, MapCompleted) are recorded and checked; wall-clock times are too noisy for a gate.
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"

if [[ "${1:-}" == "--update" ]]; then
    swift package --allow-writing-to-package-directory benchmark thresholds update \
        --target FuturesAllocations --metric mallocCountTotal --metric mallocBytesCount --path Thresholds --no-progress
    exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
swift package benchmark thresholds check --target FuturesAllocations --metric mallocCountTotal \
    --metric mallocBytesCount --path Thresholds --no-progress 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# `swift package` turns the tool's exit codes (2 = regression, 4 = improvement) into 1, so read its verdict.
if grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "allocation gate: FAILED, a Futures workload allocates more than its threshold (see above)" >&2
    exit 2
elif grep -q "is BETTER than the defined thresholds" "$log"; then
    echo "allocation gate: passed; some workloads now allocate LESS than their thresholds:"
    echo "run scripts/check-benchmark-thresholds.sh --update and commit Benchmarks/Thresholds to lock the gain in"
    exit 0
elif [[ $status -eq 0 ]]; then
    echo "allocation gate: every Futures workload is within its malloc threshold"
    exit 0
fi
echo "allocation gate: FAILED to run (exit $status)" >&2
exit "$status"
