#!/usr/bin/env bash
# Checks the model of the future cell (Models/Cell) with Spin: every configuration exhaustively, then every
# deliberate mutation, which the checker must catch. Prints one table for each.
#
#   scripts/check-model.sh            every configuration and every mutation
#   scripts/check-model.sh --ci       the configurations marked for CI (each under 3 minutes on two cores)
#   scripts/check-model.sh --no-mutations
#   scripts/check-model.sh --install  installs Spin from Debian's packages first if it is missing
#   scripts/check-model.sh --only NAME  one configuration (and the mutations checked on it)
#
# Needs `spin` and a C compiler. pan is built in a temporary directory, never in the repository; its
# memory is capped at MODEL_MEMLIM megabytes (8192 unless set).
# Exits non-zero when a configuration reports an error, runs out of depth or memory, or a mutation is not
# caught.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
model="$root/Models/Cell"

ci=0; mutations=1; install=0; only=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --ci) ci=1 ;;
        --no-mutations) mutations=0 ;;
        --install) install=1 ;;
        --only) only="$2"; shift ;;
        *) echo "usage: $0 [--ci] [--no-mutations] [--install] [--only NAME]" >&2; exit 2 ;;
    esac
    shift
done

if ! command -v spin > /dev/null; then
    if [[ $install -eq 1 ]]; then
        apt-get update > /dev/null && apt-get install -y spin > /dev/null
    else
        echo "spin is not installed (apt-get install -y spin, or run with --install)" >&2; exit 2
    fi
fi
cc=${CC:-$(command -v gcc || command -v cc || command -v clang)}

# name | in CI | what it exercises
configs=(
    "asks|ci|named asks: asked then removed, removed then asks, a second ask, a leave after asking"
    "early|ci|a removal (leaving) racing ahead of the registration it removes; its tally allocated outside the lock"
    "leave|ci|leaves (before and after registering) while another consumer waits and is removed later, an observer"
    "leave-asked|ci|a leave without having asked after another consumer asked, then a removal"
    "abandon|ci|a dropped promise while consumers ask and are removed, then an explicit request"
    "race|ci|asks, a removal and an explicit request racing the completion; a handler registered late"
    "handout|ci|hand-out with late registrations from two threads, a lock-free read, a held-back queue"
    "complete|ci|two completions, a waiter, an immediate callback registering another (trampoline depth 1)"
    "complete-nested|ci|as complete with two trampoline frames"
    "handout-wide|ci|hand-out with two queue callbacks pending, late ones from two threads, two readers"
    "handout-widest|full|as handout-wide with a third late registration"
)

# mutation | configuration that must catch it | property
mutation_list=(
    "MUT_COMPLETE_TWICE|complete|G1 completes at most once"
    "MUT_REMOVED_RUNS|race|G2 a removed callback never runs"
    "MUT_DROP_LATE|handout|G2 a late callback runs"
    "MUT_TRAMP_NO_DRAIN|complete|G2 the trampoline runs what it queued"
    "MUT_SKIP_LATE|handout|G3 queue order includes late registrations"
    "MUT_WAKE_LAST|complete|G3 waiters are woken first"
    "MUT_HANDOUT_WAITS|handout|G4 a hand-out never waits for the queue"
    "MUT_REGISTRANT_TAKES_LATE|handout|G4 a registrant runs only its own callback"
    "MUT_ANON_ASK|asks|G8 only when (asks counted anonymously)"
    "MUT_REMOVE_KEEPS_ASK|asks|G8 only when (asked, then removed)"
    "MUT_ASK_AFTER_REMOVE|asks|G8 only when (removed, then asks)"
    "MUT_ASK_TWICE|asks|G8 only when (one consumer asks twice)"
    "MUT_EARLY_REMOVE_COUNTS|early|G8 only when (removal before registration)"
    "MUT_ABANDON_FORGETS|abandon|G8 only when (abandoned consumers)"
    "MUT_NO_FIRE_ON_REMOVE|leave|G8 if (a removal leaves only askers)"
    "MUT_LEAVE_NOT_COUNTED|leave|G8 if (a leave taken for a plain removal)"
    "MUT_LEAVE_UNCOUNTS|leave|G8 if (a leave stands: removing the last waiter asks)"
    "MUT_LEAVE_ASK_LOST|leave-asked|G8 if (a leave adds its ask to a tally)"
    "MUT_WITHDRAWN_LEAVE_LOST|leave|G8 if (a leave before registering)"
    "MUT_WITHDRAWN_LEAVE_NO_TALLY|early|a leave that needs a tally has one (precondition)"
    "MUT_OBSERVER_COUNTS|leave|G8 if (an observer is no consumer)"
    "MUT_ABANDON_DROPS_HANDLERS|abandon|G8 handlers run on request after abandon"
    "MUT_RUN_UNDER_LOCK|complete|no deadlock (a callback run under the lock)"
    "MUT_LOCK_LEAK|complete|no deadlock (a refused completion keeps the lock)"
    "MUT_PUBLISH_BEFORE_PAYLOAD|complete|no unpublished read"
    "MUT_READ_IGNORES_HANDOUT|handout|no torn read"
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run_pan NAME [DEFINE]: builds and runs pan for configs/NAME.pml; leaves its output in $work/out.
# A mutation's pan is built unoptimised: it stops at its first error, and compiling is most of its time.
run_pan() {
    local name=$1 define=${2:-} opt=-O2
    [[ -n $define ]] && opt=-O0
    local dir="$work/$name${define:+-$define}"
    mkdir -p "$dir"
    (
        cd "$dir"
        spin -a ${define:+-D$define} "$model/configs/$name.pml" > spin.log 2>&1 || { cat spin.log; exit 1; }
        "$cc" $opt -w -DSAFETY -DCOLLAPSE -DMEMLIM=${MODEL_MEMLIM:-8192} -o pan pan.c > cc.log 2>&1 || { cat cc.log; exit 1; }
        ./pan -m400000 > pan.log 2>&1 || true
    ) || return 1
    cp "$dir/pan.log" "$work/out"
}

field() { grep -oE "$1" "$work/out" | head -n 1 | grep -oE "[0-9][0-9.e+]*" | head -n 1; }

failed=0
printf '\n%-16s %-5s %12s %6s %9s %10s  %s\n' configuration ci states depth "time (s)" "memory MB" result
for row in "${configs[@]}"; do
    IFS='|' read -r name where _ <<< "$row"
    [[ -n $only && $name != "$only" ]] && continue
    [[ -z $only && $ci -eq 1 && $where != ci ]] && continue
    if ! run_pan "$name"; then
        printf '%-16s %-5s %s\n' "$name" "$where" "FAILED TO BUILD"; failed=1; continue
    fi
    states=$(grep -E "states, stored" "$work/out" | head -n 1 | awk '{print $1}')
    depth=$(field "depth reached [0-9]+")
    errors=$(field "errors: [0-9]+")
    secs=$(field "elapsed time [0-9.e+]+")
    mem=$(grep -E "total actual memory usage" "$work/out" | awk '{print $1}')
    result=ok
    if [[ ${errors:-1} != 0 ]] || grep -qE "max search depth too small|out of memory|pan: reached -DMEMLIM" "$work/out"; then
        result=FAILED; failed=1
    fi
    printf '%-16s %-5s %12s %6s %9s %10s  %s\n' "$name" "$where" "${states:-?}" "${depth:-?}" "${secs:-?}" "${mem:-?}" "$result"
    if [[ $result == FAILED ]]; then
        grep -E "pan:|error|violated" "$work/out" | head -n 10
        echo "  replay: spin -a $model/configs/$name.pml && gcc -DSAFETY -DCOLLAPSE -o pan pan.c && ./pan && spin -t -p -k $name.pml.trail $model/configs/$name.pml"
    fi
done

if [[ $mutations -eq 1 ]]; then
    printf '\n%-28s %-16s %-6s %s\n' mutation configuration caught property
    for row in "${mutation_list[@]}"; do
        IFS='|' read -r mutation name property <<< "$row"
        [[ -n $only && $name != "$only" ]] && continue
        if ! run_pan "$name" "$mutation"; then
            printf '%-28s %-16s %-6s %s\n' "$mutation" "$name" "BUILD" "$property"; failed=1; continue
        fi
        errors=$(field "errors: [0-9]+")
        if [[ ${errors:-0} -gt 0 ]]; then
            what=$(grep -oE "assertion violated|invalid end state" "$work/out" | head -n 1)
            printf '%-28s %-16s %-6s %s (%s)\n' "$mutation" "$name" yes "$property" "$what"
        else
            printf '%-28s %-16s %-6s %s\n' "$mutation" "$name" NO "$property"; failed=1
        fi
    done
fi

if [[ $failed -ne 0 ]]; then
    echo "FAIL: the cell model"; exit 1
fi
if [[ $mutations -eq 1 ]]; then
    echo "the cell model holds, and every mutation is caught"
else
    echo "the cell model holds"
fi
