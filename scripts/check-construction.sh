#!/usr/bin/env bash
# Construction counts over Sources/ (Swift files, comments not counted), enforced as a ratchet: each count
# has a committed ceiling (its value when the ceiling was last lowered) and a goal. A count above its
# ceiling fails, with the offending lines; a count below it passes and says which ceiling to lower.
#
#   1. bare-lock-calls        `.lock()` / `.unlock()` outside the lock's own files (a file that defines
#                             `func lock()` or `func unlock()`, today Sources/Futures/Core/ParkingLock.swift).
#                             Goal 0: one critical-region API.
#   2. face-casts             `unsafeDowncast` / `unsafeBitCast` in the face modules (Sources/BrightFutures,
#                             Sources/SimpleFutures, Sources/Bolts, Sources/BoltsSwift). Goal 0.
#   3. face-named-core-files  files of Sources/Futures whose name holds a face's name: the base name contains
#                             `BrightFutures`, `SimpleFutures`, `Bolts` (so `BoltsSwift` too) or `BFTask`, or
#                             is `Async.swift` / `Async+….swift` (BrightFutures' base type `Async`, or an
#                             extension of it by the `Type+Topic.swift` naming; `DispatchQueue+Async.swift`
#                             and `FutureStream+AsyncSequence.swift` extend other types and do not count).
#                             Goal 0: the core holds no face's own types.
#   4. _checkInvariants       `func _checkInvariants` defined, and called, in Sources/Futures. Goal: both at
#                             least once. Reported only while REQUIRE_INVARIANTS=0; enforced once it is 1.
#   5. registration-…         call sites outside Sources/Futures/Core/ of the cell's lower-level
#                             registration methods (declared in Core/Future.swift, Future+Removable.swift,
#                             CancellableCallback.swift, FutureState.swift), one count per method name.
#                             Goal 0 each: outside Core/, an output waits for an input only through
#                             `depend(on:…)` / `depend(upon:…)` or what is built on it (`derive`,
#                             `completeWith`, `following`), counted for information. The public
#                             registrations (`onComplete`, `onSuccess`, `onFailure`, `observe`,
#                             `onCancellationRequested`) are API, not counted.
#
# A comment is `//` at the start of a line or after white space, to the end of the line (so `///` too);
# block comments are not recognised. Usage: scripts/check-construction.sh (from anywhere).
set -euo pipefail
cd "$(dirname "$0")/.."

# ---- Ceilings: today's counts. Lower them as the counts go down; never raise one. ----
CEILING_BARE_LOCK_CALLS=0
CEILING_FACE_CASTS=0
CEILING_FACE_NAMED_CORE_FILES=0
# 0: report whether `_checkInvariants` is defined and called; 1: fail unless it is both.
REQUIRE_INVARIANTS=1
# 5. One ceiling per registration method (goal 0 each).
CEILING_REG_whenComplete=0
CEILING_REG_whenCompleteAsConsumer=0
CEILING_REG_whenCompleteCancellable=0
CEILING_REG_whenCompleteTrackingInvalidation=0
CEILING_REG_whenCompleteRemovable=0
CEILING_REG_whenCompleteGatedTracked=0
CEILING_REG_whenCompleteTracked=0
CEILING_REG_onCompletionObserved=0
CEILING_REG_onCompletionWakeUp=0
CEILING_REG_addRemovable=0
CEILING_REG_removeEntry=0
CEILING_REG_registerRemovable=0
CEILING_REG_linkProgressAndCancellation=0
CEILING_REG_linkCancellation=0

FACES=(Sources/BrightFutures Sources/SimpleFutures Sources/Bolts Sources/BoltsSwift)
CORE=Sources/Futures/Core/

failed=0
offending=""

# code_lines ERE PATH...: `file:line:code` for every line of a Swift file under PATH whose code (the line
# without its comment) matches ERE.
code_lines() {
    local pattern=$1
    shift
    { grep -rnE --include='*.swift' -- "$pattern" "$@" || true; } \
        | awk '{
            match($0, /^[^:]*:[0-9]+:/)
            prefix = substr($0, 1, RLENGTH); code = substr($0, RLENGTH + 1)
            sub(/(^|[[:space:]])\/\/.*$/, "", code)
            print prefix code
        }' \
        | { grep -E -- "^[^:]*:[0-9]+:.*($pattern)" || true; } \
        | sort -t: -k1,1 -k2,2n
}

count() { if [[ -z $1 ]]; then echo 0; else printf '%s\n' "$1" | wc -l | tr -d ' '; fi; }

# check NAME LINES CEILING GOAL: prints the line, records a failure above the ceiling.
check() {
    local name=$1 lines=$2 ceiling=$3 goal=$4 n
    n=$(count "$lines")
    if ((n > ceiling)); then
        echo "$name: $n (ceiling $ceiling, goal $goal)  FAIL: above the ceiling"
        offending+="== $name"$'\n'"$lines"$'\n'
        failed=1
    elif ((n < ceiling)); then
        echo "$name: $n (ceiling $ceiling, goal $goal)  below the ceiling: lower it to $n"
    else
        echo "$name: $n (ceiling $ceiling, goal $goal)"
    fi
}

# 1. Bare lock calls outside the lock's own files.
lock_files=$(code_lines 'func (lock|unlock)\(\)' Sources | cut -d: -f1 | sort -u)
bare=$(code_lines '\.(lock|unlock)\(\)' Sources \
    | awk -F: -v files="$lock_files" 'BEGIN { n = split(files, f, "\n"); for (i = 1; i <= n; i++) own[f[i]] = 1 }
        !($1 in own)')
check "bare-lock-calls" "$bare" "$CEILING_BARE_LOCK_CALLS" 0

# 2. Unsafe casts in the face modules.
check "face-casts" "$(code_lines 'unsafeDowncast|unsafeBitCast' "${FACES[@]}")" "$CEILING_FACE_CASTS" 0

# 3. Files of the core named after a face.
named=$(find Sources/Futures -name '*.swift' | sort \
    | awk -F/ '$NF ~ /BrightFutures|SimpleFutures|Bolts|BFTask/ || $NF ~ /^Async(\+.*)?\.swift$/')
check "face-named-core-files" "$named" "$CEILING_FACE_NAMED_CORE_FILES" 0

# 4. The whole-state invariant check.
defined=$(code_lines 'func _checkInvariants[[:space:]]*[(<]' Sources/Futures)
called=$(code_lines '(^|[^[:alnum:]_])_checkInvariants[[:space:]]*\(' Sources/Futures \
    | { grep -vE 'func _checkInvariants' || true; })
n_defined=$(count "$defined")
n_called=$(count "$called")
requirement=optional
verdict=""
if ((REQUIRE_INVARIANTS)); then
    requirement=required
    if ((n_defined == 0 || n_called == 0)); then
        verdict="  FAIL: required, and not both defined and called"
        offending+="== _checkInvariants: defined $n_defined time(s), called $n_called time(s) in Sources/Futures"$'\n'
        failed=1
    fi
fi
echo "_checkInvariants defined: $n_defined (ceiling $requirement, goal >= 1)$verdict"
echo "_checkInvariants called: $n_called (ceiling $requirement, goal >= 1)$verdict"

# 5. The cell's lower-level registration methods called outside Core/. Methods that take only a closure
# are also called with a trailing closure (`onCompletionObserved { … }`); the others always with `(`
# (which keeps out SwiftNIO's `eventLoopFuture.whenComplete { … }`).
outside_core() { awk -F: -v core="$CORE" 'index($1, core) != 1'; }
for method in whenComplete whenCompleteAsConsumer whenCompleteCancellable whenCompleteTrackingInvalidation \
    whenCompleteRemovable whenCompleteGatedTracked whenCompleteTracked onCompletionObserved onCompletionWakeUp \
    addRemovable removeEntry registerRemovable linkProgressAndCancellation linkCancellation; do
    case $method in
        onCompletionObserved | onCompletionWakeUp) call='[[:space:]]*[({]' ;;
        *) call='\(' ;;
    esac
    sites=$(code_lines "(^|[^[:alnum:]_])${method}${call}" Sources | outside_core \
        | { grep -vE "func ${method}[^[:alnum:]_]" || true; })
    ceiling_var="CEILING_REG_${method}"
    check "registration-$method" "$sites" "${!ceiling_var}" 0
done
primitive=$(code_lines '(^|[^[:alnum:]_])(depend|derive)\(' Sources | outside_core \
    | { grep -vE 'func (depend|derive)[^[:alnum:]_]|ProgressLink\.derive' || true; })
echo "registration through depend (depend, derive), for information: $(count "$primitive")"

if ((failed)); then
    printf '\n%s' "$offending"
    echo "FAIL: scripts/check-construction.sh (a count above its ceiling, or a requirement not met)"
    exit 1
fi
