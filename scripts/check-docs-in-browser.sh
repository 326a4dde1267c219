#!/usr/bin/env bash
# Builds the DocC site of Futures as static files, serves it over HTTP (DocC's app does not load its data
# from file:// URLs) and opens its pages in headless Chromium at 1280 px (scripts/check-docs-in-browser.py):
# fails on content cut at the right, a missing image or a broken internal link.
#
#   scripts/check-docs-in-browser.sh                      # build, serve, check
#   scripts/check-docs-in-browser.sh --screenshots DIR    # also save the landing page, Performance and
#                                                         # Cancellation as DIR/*.png (not to be committed)
#   SITE=/path/to/built/site scripts/check-docs-in-browser.sh   # check a site built before (its root holds
#                                                         # futures/, built with --hosting-base-path futures)
# Installs Debian's chromium, chromium-driver and python3-selenium when they are missing; runs the check
# with Debian's python3 (/usr/bin/python3), where python3-selenium is installed, whatever python3 is first on
# the PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

py=/usr/bin/python3
if ! command -v chromium > /dev/null || ! command -v chromedriver > /dev/null \
    || ! "$py" -c "import selenium" 2> /dev/null; then
    apt-get update > /dev/null && apt-get install -y chromium chromium-driver python3-selenium > /dev/null
fi

work=$(mktemp -d)
server=""
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2> /dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

site=${SITE:-}
if [[ -z "$site" ]]; then
    site="$work/site"
    mkdir -p "$site"
    swift package --enable-all-traits --allow-writing-to-directory "$site" generate-documentation \
        --target Futures --output-path "$site/futures" \
        --transform-for-static-hosting --hosting-base-path futures > "$work/docc.log" 2>&1 \
        || { cat "$work/docc.log"; echo "FAIL: the DocC site did not build"; exit 1; }
fi

# A free port, then the server; wait until it answers.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" > "$work/http.log" 2>&1 &
server=$!
for _ in $(seq 1 50); do
    if python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/futures/')" 2> /dev/null; then
        break
    fi
    sleep 0.1
done

"$py" scripts/check-docs-in-browser.py "http://127.0.0.1:$port/futures/" "$@"
