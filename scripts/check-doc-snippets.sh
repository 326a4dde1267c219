#!/usr/bin/env bash
# Every ```swift block of every DocC catalog (Sources/*/*.docc) must appear, line for line, in a
# test under Tests/ — so the code the documentation shows is code the test suite compiles and runs.
#
# Lines are compared trimmed, with runs of spaces collapsed (swift-format re-indents and re-spaces
# comments); blank lines and `import` lines are ignored. In a before/after block of a migration guide,
# only the lines under a `// swift-futures` comment are ours and checked; the lines under a comment naming
# the other library (`// BrightFutures`, `// SimpleFutures`, `// Bolts`, `// PromiseKit`) are not.
# A block that needs something the tests cannot have is listed in EXEMPT below, with the reason.
# Also checks that the Guarantees article has the clauses of GUARANTEES.md, word for word.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - <<'PY'
import pathlib, re, sys

EXEMPT: dict[str, str] = {}
OTHERS = re.compile(r"^// (BrightFutures|SimpleFutures|Bolts|Bolts-Swift|PromiseKit)\b")
OURS = re.compile(r"^// swift-futures\b")

def normalize(line):
    return re.sub(r"\s+", " ", line.strip())

def code_lines(text):
    return [n for n in (normalize(l) for l in text.splitlines()) if n and not n.startswith("import ")]

tests = {p: "\n".join(code_lines(p.read_text())) for p in pathlib.Path("Tests").rglob("*.swift")}
failures = checked = 0
for article in sorted(pathlib.Path("Sources").glob("*/*.docc/**/*.md")):
    blocks = re.findall(r"^```swift\n(.*?)^```", article.read_text(), re.S | re.M)
    for number, block in enumerate(blocks, 1):
        if article.name in EXEMPT:
            print(f"skipped {article.name} block {number}: {EXEMPT[article.name]}")
            continue
        segments, current, ours = [], [], True
        for line in code_lines(block):
            if OTHERS.match(line) or OURS.match(line):
                if current and ours:
                    segments.append(current)
                current, ours = [], bool(OURS.match(line))
                continue
            current.append(line)
        if current and ours:
            segments.append(current)
        for segment in segments:
            checked += 1
            wanted = "\n".join(segment)
            if not any(wanted in body for body in tests.values()):
                failures += 1
                print(f"FAIL: {article.name}, swift block {number}: not found in any test under Tests/:")
                print("    " + "\n    ".join(segment))
# The Guarantees article mirrors GUARANTEES.md clause for clause: from its first clause on, both must agree.
root = pathlib.Path("GUARANTEES.md").read_text()
article = pathlib.Path("Sources/Futures/Futures.docc/Guarantees.md").read_text()
if root[root.index("## G1."):] != article[article.index("## G1."):]:
    failures += 1
    print("FAIL: the clauses of Futures.docc/Guarantees.md differ from GUARANTEES.md: copy them over")

if failures:
    print(f"{failures} documentation snippet(s) are not in a test: copy them into "
          "Tests/<Module>Tests/Documentation/<Article>SnippetTests.swift", file=sys.stderr)
    sys.exit(1)
print(f"documentation snippets: all {checked} are in tests")
PY
