#!/usr/bin/env bash
# Client resolution check: a package that depends only on the `Futures` product must fetch
# nothing else. Builds a throwaway client in a temporary folder that depends on this repository by path,
# and fails if its Package.resolved pins any package. Then, as a control that the check can fail, resolves
# a client that enables every trait (`NIO`, `Combine`, `Logging`, `ServiceContext`, `Tracing`, `Metrics`,
# `ServiceLifecycle`) and expects swift-nio, OpenCombine, swift-log, swift-service-context (with
# swift-distributed-tracing, where its `ServiceContext` type and `Tracing` live), swift-metrics and
# swift-service-lifecycle to be pinned.
#
#   scripts/check-client-resolution.sh            # resolve + build the plain client, resolve the control
#   scripts/check-client-resolution.sh --no-build # resolution only (faster)
#
# Works offline: the only remote packages involved are the traits' ones (and only in the control).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=1
[[ "${1:-}" == "--no-build" ]] && build=0

work=$(mktemp -d "${TMPDIR:-/tmp}/futures-client.XXXXXX")
trap 'rm -rf "$work"' EXIT

# make_client DIR TRAITS_ARGUMENT
make_client() {
    mkdir -p "$1/Sources/Client"
    cat >"$1/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Client",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        .package(path: "$repo"$2),
    ],
    targets: [
        .executableTarget(
            name: "Client",
            dependencies: [.product(name: "Futures", package: "$(basename "$repo")")]
        ),
    ]
)
MANIFEST
    cat >"$1/Sources/Client/main.swift" <<'SWIFT'
import Futures

let doubled = Future<Int, Never>(value: 21).map(immediateExecutionContext) { $0 * 2 }
print("client: \(doubled.forced())")
SWIFT
}

# pins DIR: the identities pinned in DIR/Package.resolved, one a line (none when the file is absent).
pins() {
    [[ -f "$1/Package.resolved" ]] || return 0
    python3 - "$1/Package.resolved" <<'PY'
import json, sys
for pin in json.load(open(sys.argv[1])).get("pins", []):
    print(pin["identity"])
PY
}

echo "== a client of Futures alone"
make_client "$work/plain" ""
(cd "$work/plain" && swift package resolve)
fetched=$(pins "$work/plain")
if [[ -n "$fetched" ]]; then
    echo "FAIL: a client that depends only on Futures fetched:" >&2
    echo "$fetched" >&2
    exit 1
fi
echo "Package.resolved pins no package"
if [[ $build -eq 1 ]]; then
    (cd "$work/plain" && swift build && swift run Client)
fi

echo "== control: a client enabling every trait"
make_client "$work/traits" ', traits: ["NIO", "Combine", "Logging", "ServiceContext", "Tracing", "Metrics", "ServiceLifecycle"]'
(cd "$work/traits" && swift package resolve)
fetched=$(pins "$work/traits")
echo "$fetched"
for expected in swift-nio opencombine swift-log swift-service-context swift-distributed-tracing swift-metrics \
    swift-service-lifecycle; do
    if ! grep -qx "$expected" <<<"$fetched"; then
        echo "FAIL: the control client did not pin $expected: the check cannot see fetched packages" >&2
        exit 1
    fi
done
echo "client resolution: a Futures-only client fetches nothing; the traits fetch their packages"
