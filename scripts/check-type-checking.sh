#!/usr/bin/env bash
# The type-checking budget: every file Tests/TypeCheckBudget/*.swift (ordinary chains of one face, importing
# only that face's module; not part of any target) is type-checked against the modules of the package's
# build, and any expression that takes longer than the budget (100 ms, or $TYPECHECK_BUDGET_MS) fails the
# check, as does any other warning or error. The offending lines are printed.
#
# CI runs `swift build --enable-all-traits` first; if a module a file imports is missing, this script runs
# that build itself. Usage: scripts/check-type-checking.sh [file.swift ...] (default: every budget file).
set -euo pipefail
cd "$(dirname "$0")/.."

budget="${TYPECHECK_BUDGET_MS:-100}"
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    shopt -s nullglob
    files=(Tests/TypeCheckBudget/*.swift)
fi
if [ ${#files[@]} -eq 0 ]; then
    echo "check-type-checking: no files in Tests/TypeCheckBudget" >&2
    exit 1
fi

bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"

# The modules the files import, other than the toolchain's own.
missing=0
for file in "${files[@]}"; do
    for module in $(sed -n -E 's/^(@testable |@_exported )?import ([A-Za-z_][A-Za-z0-9_]*).*/\2/p' "$file"); do
        case "$module" in
            Swift | Foundation | FoundationEssentials | Dispatch | Synchronization | _Concurrency | Glibc | Darwin) ;;
            *) [ -e "$modules/$module.swiftmodule" ] || missing=1 ;;
        esac
    done
done
if [ "$missing" -eq 1 ]; then
    echo "check-type-checking: building the modules (swift build --enable-all-traits)"
    swift build --enable-all-traits
fi

# The package's C modules (CFuturesShims, …) are found through the module maps the build generated.
clang_maps=()
while IFS= read -r map; do
    clang_maps+=(-Xcc "-fmodule-map-file=$map")
done < <(find -L "$bin" -mindepth 2 -maxdepth 2 -path '*.build/module.modulemap' 2>/dev/null | sort)

platform=()
if [ "$(uname -s)" = "Darwin" ]; then
    # The package's minimum macOS (Package.swift `platforms`); the toolchain's default is older.
    platform=(-target "$(uname -m)-apple-macosx15.0" -sdk "$(xcrun --show-sdk-path)")
fi

status=0
for file in "${files[@]}"; do
    code=0
    output="$(swiftc -typecheck -swift-version 6 ${platform[@]+"${platform[@]}"} -I "$modules" ${clang_maps[@]+"${clang_maps[@]}"} \
        -Xfrontend -warn-long-expression-type-checking="$budget" "$file" 2>&1)" || code=$?
    offending="$(printf '%s\n' "$output" | grep -E '^[^ ].*: (warning|error): ' || true)"
    if [ "$code" -ne 0 ] && [ -z "$offending" ]; then
        offending="$output"
    fi
    if [ -n "$offending" ]; then
        echo "FAIL $file"
        printf '%s\n' "$offending"
        status=1
    else
        echo "ok   $file"
    fi
done
if [ "$status" -ne 0 ]; then
    echo "check-type-checking: over the ${budget} ms budget, or warnings/errors (above)" >&2
fi
exit "$status"
