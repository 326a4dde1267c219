#!/usr/bin/env bash
# The size of the public surface: for each library module (the eleven products), the number of public and
# open symbols that module declares, and the total; with --package also the `package` symbols.
#
# How: `swift build --enable-all-traits` (a no-op after the tests' build), then `swift-symbolgraph-extract`
# on each module's .swiftmodule at `-minimum-access-level internal`, filtered by access level below (at
# `public` or `package` the extractor leaves out public declarations whose names start with an underscore,
# such as `_outcome`). `swift package dump-symbol-graph` gives the same graphs but builds with its own
# flags, so it rebuilds every module, and the tests after it.
#
# What counts as a symbol the module declares (the rule):
# - every symbol of the module's graphs, `<Module>.symbols.json` and `<Module>@<Other>.symbols.json` (its
#   extensions of other modules' types: `Result`, `Sequence`, `DispatchQueue`, `Future` in a face, …), with
#   access `public` or `open` (`package` for the --package column);
# - except synthesized members, the copies a type gets of a protocol's default implementation or of a
#   superclass member (USR containing `::SYNTHESIZED::`): `AsyncSequence.map` on `FutureStream`, the
#   `Publisher` operators on a publisher, `Equatable.!=`, and a face's own protocol-extension members on
#   `Future`. A protocol extension member the module writes itself is counted once, where it is declared;
# - members the compiler implies on the module's own declarations (`init(rawValue:)` of an enum with a raw
#   type) count: a client can call them.
# - symbols re-exported from another module (`@_exported import`) are not in the graph, so not counted.
# Each symbol is one declaration: every overload, enum case, property, typealias, associated type counts one.
#
# Usage: scripts/count-public-api.sh [--package] [--no-build] [--list [MODULE]] [--graphs DIR]
#   --package     also print the `package` symbols per module
#   --no-build    use the modules of the last build as they are
#   --list        print every counted symbol (module, access, kind, name with its path, file:line),
#                 optionally for one module only, instead of the table
#   --graphs DIR  keep the symbol graphs in DIR (default: a temporary directory, removed at exit)
set -euo pipefail
cd "$(dirname "$0")/.."

MODULES=(Futures FuturesNIO FuturesCombine FuturesLogging FuturesMetrics FuturesTracing FuturesServiceLifecycle
    BrightFutures SimpleFutures Bolts BoltsSwift)

package=0
build=1
list=0
list_module=""
graphs=""
while [ $# -gt 0 ]; do
    case "$1" in
        --package) package=1 ;;
        --no-build) build=0 ;;
        --list)
            list=1
            if [ $# -gt 1 ] && [[ "$2" != --* ]]; then
                list_module="$2"
                shift
            fi
            ;;
        --graphs)
            graphs="$2"
            shift
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "count-public-api: unknown argument $1" >&2
            exit 2
            ;;
    esac
    shift
done

if [ "$build" -eq 1 ]; then
    swift build --enable-all-traits >&2
fi
bin="$(swift build --enable-all-traits --show-bin-path)"
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"

if [ -z "$graphs" ]; then
    graphs="$(mktemp -d)"
    trap 'rm -rf "$graphs"' EXIT
fi
mkdir -p "$graphs"

# The C modules (CFuturesShims, the dependencies' shims) are found through their module maps: the ones the
# build generated, and the ones the dependencies' checkouts ship.
clang_maps=()
while IFS= read -r map; do
    clang_maps+=(-Xcc "-fmodule-map-file=$map")
done < <(
    find -L "$bin" -mindepth 2 -maxdepth 2 -path '*.build/module.modulemap' 2>/dev/null
    find -L .build/checkouts -mindepth 4 -maxdepth 5 -path '*/Sources/*/module.modulemap' 2>/dev/null
)

if [ "$(uname -s)" = "Darwin" ]; then
    # The package's minimum macOS (Package.swift `platforms`); the toolchain's default is older.
    platform=(-target "$(uname -m)-apple-macosx15.0" -sdk "$(xcrun --show-sdk-path)")
else
    triple="$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
    platform=(-target "$triple")
fi

for module in "${MODULES[@]}"; do
    if [ ! -e "$modules/$module.swiftmodule" ]; then
        echo "count-public-api: $modules/$module.swiftmodule is missing (build with --enable-all-traits)" >&2
        exit 1
    fi
    swift-symbolgraph-extract -module-name "$module" "${platform[@]}" -I "$modules" \
        ${clang_maps[@]+"${clang_maps[@]}"} -minimum-access-level internal -output-dir "$graphs" >&2
done

python3 - "$graphs" "$package" "$list" "$list_module" "${MODULES[@]}" <<'PY'
import json, pathlib, sys

graphs, package, listing, list_module, modules = (
    pathlib.Path(sys.argv[1]), sys.argv[2] == "1", sys.argv[3] == "1", sys.argv[4], sys.argv[5:])

def symbols(module):
    for path in sorted(graphs.glob(f"{module}.symbols.json")) + sorted(graphs.glob(f"{module}@*.symbols.json")):
        for symbol in json.loads(path.read_text())["symbols"]:
            if "::SYNTHESIZED::" not in symbol["identifier"]["precise"]:
                yield symbol

counts = {}
for module in modules:
    public = package_level = 0
    for symbol in symbols(module):
        access = symbol["accessLevel"]
        if access in ("public", "open"):
            public += 1
        elif access == "package":
            package_level += 1
        else:
            continue
        if listing and list_module in ("", module):
            location = symbol.get("location")
            where = ""
            if location:
                where = location["uri"].split("/Sources/", 1)[-1] + ":" + str(location["position"]["line"] + 1)
            if access != "package" or package:
                print("\t".join([module, access, symbol["kind"]["identifier"].removeprefix("swift."),
                                 ".".join(symbol["pathComponents"]), where]))
    counts[module] = (public, package_level)

if not listing:
    width = max(len(m) for m in modules + ["total"])
    header = f"{'module':<{width}}  public" + ("  package" if package else "")
    print(header)
    print("-" * len(header))
    for module in modules + ["total"]:
        public, package_level = counts[module] if module != "total" else (
            sum(c[0] for c in counts.values()), sum(c[1] for c in counts.values()))
        print(f"{module:<{width}}  {public:>6}" + (f"  {package_level:>7}" if package else ""))
PY
