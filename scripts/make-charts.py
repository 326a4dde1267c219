#!/usr/bin/env python3
"""Writes the documentation's pictures into the DocC catalog's Resources folder (standard library only).

Charts, from the newest full benchmark run committed in Benchmarks/Results/ (the newest summary written by
Benchmarks/run.sh that has as many workloads as any run):
  perf-time-headline.svg, perf-time-more.svg     Futures' time divided by each peer's (log scale)
  perf-mallocs-headline.svg, perf-mallocs-more.svg  mallocs per operation of every library
Diagrams (drawn here, no data):
  consumer-rule.svg, cell-states.svg, threading-model.svg

  scripts/make-charts.py            # rewrite every SVG
  scripts/make-charts.py --tables   # also print the Performance article's tables (markdown) for that run

CI re-runs it and fails when the committed SVGs differ (`git diff --exit-code`), so commit its output.
"""
import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "Benchmarks" / "Results"
OUT = ROOT / "Sources" / "Futures" / "Futures.docc" / "Resources"

LIBRARIES = ["Futures", "NIO", "OpenCombine", "AsyncAwait", "Closure", "Naive"]
NAMES = {
    "Futures": "Futures",
    "NIO": "SwiftNIO",
    "OpenCombine": "OpenCombine",
    "AsyncAwait": "async/await",
    "Closure": "Dispatch / closures",
    "Naive": "naive reference",
}
COLORS = {
    "Futures": "#2b6cb0",
    "NIO": "#dd6b20",
    "OpenCombine": "#805ad5",
    "AsyncAwait": "#2f855a",
    "Closure": "#718096",
    "Naive": "#c53030",
}
HEADLINE = ["W1", "W2s", "W4"]
MORE = ["W1One", "W2One", "W2", "W3a", "W3b", "W4Completed", "W5", "Map", "MapCompleted", "W6", "W7",
        "Streams.Map1"]
FONT = "font-family=\"-apple-system, 'Helvetica Neue', Helvetica, Arial, sans-serif\""

UNITS = {"ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


# ---------------------------------------------------------------------------------------------------
# Reading a run


def summaries():
    return sorted(p for p in RESULTS.glob("*.md") if not p.name.endswith(".raw.md") and p.name[0].isdigit())


def parse(path):
    """{workload: (description, {library: cell text})} of a run's side-by-side table."""
    rows = {}
    header = None
    for line in path.read_text().splitlines():
        if not line.startswith("|"):
            header = None if not line.strip() else header
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "workload":
            header = cells
            continue
        match = re.match(r"\*\*(.+?)\*\*: (.*)", cells[0])
        if header and match:
            rows[match.group(1)] = (match.group(2), dict(zip(header[1:], cells[1:])))
    return rows


def newest_full_run():
    runs = [(p, parse(p)) for p in summaries()]
    most = max(len(rows) for _, rows in runs)
    path, rows = [(p, r) for p, r in runs if len(r) == most][-1]
    return path, rows


def time_ns(cell):
    """Time per operation (per element for batch workloads, the figure in parentheses), in ns."""
    if not cell or cell == "–":
        return None
    per = re.search(r"\(([\d.]+) (ns|µs|ms|s) per", cell)
    number, unit = (per.groups() if per else re.match(r"([\d.]+) (ns|µs|ms|s)", cell).groups())
    return float(number) * UNITS[unit]


def mallocs(cell):
    if not cell or cell == "–":
        return None
    match = re.search(r"([\d.]+) mallocs/", cell)
    return float(match.group(1)) if match else None


def bytes_per_op(cell):
    match = re.search(r"(\d+) B/op", cell or "")
    return int(match.group(1)) if match else None


def peak_rss(cell):
    match = re.search(r"peak RSS (\d+) MB", cell or "")
    return int(match.group(1)) if match else None


# ---------------------------------------------------------------------------------------------------
# SVG helpers


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def text(x, y, s, size=13, anchor="start", weight="normal", fill="#1a202c", italic=False):
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{fill}"{style}>{esc(s)}</text>')


# Widest advance per character, as a fraction of the font size, over the fonts a reader may have: Linux's
# DejaVu Sans is the widest of the usual ones (Helvetica and Arial are narrower). A line of heading() is
# checked against it, so a title is never cut at the right edge, whatever font renders it.
WIDEST_ADVANCE = {"normal": 0.62, "bold": 0.70}


def heading(title, subtitle, width=760, margin=12):
    """The title (15 px, bold) at the top and the subtitle lines (12 px) under it, each checked to fit."""
    lines = [(26, title, 15, "bold", "#1a202c")] + [
        (44 + 14 * i, line, 12, "normal", "#4a5568") for i, line in enumerate(subtitle)]
    parts = []
    for y, line, size, weight, fill in lines:
        needed = len(line) * size * WIDEST_ADVANCE[weight]
        if needed > width - 2 * margin:
            sys.exit(f"make-charts: '{line}' needs about {needed:.0f} px in the widest font; "
                     f"{width - 2 * margin} px are free: shorten it or split it")
        parts.append(text(margin, y, line, size, weight=weight, fill=fill))
    return parts


def svg(width, height, title, body):
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(title)}" {FONT}>\n'
            f"<title>{esc(title)}</title>\n"
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def legend(x, y, libraries):
    parts = []
    for library in libraries:
        parts.append(f'<rect x="{x}" y="{y - 10}" width="12" height="12" fill="{COLORS[library]}"/>')
        parts.append(text(x + 16, y, NAMES[library], 12))
        x += 30 + 6.6 * len(NAMES[library])
    return parts


def fmt_ratio(r):
    return f"{r:.2f}×" if r < 10 else f"{r:.0f}×"


def fmt_count(m):
    return f"{m:.0f}" if m == int(m) else f"{m:.2f}"


# ---------------------------------------------------------------------------------------------------
# Charts

WIDTH = 760
LABEL_W = 150


def time_chart(rows, workloads, run, title):
    """Futures' time / each peer's time, log scale centred on 1×: a bar to the left means Futures is faster."""
    peers = [l for l in LIBRARIES if l != "Futures"]
    lo, hi = 0.03, 30.0
    x0, x1 = LABEL_W + 20, WIDTH - 20
    scale = lambda r: x0 + (math.log10(min(max(r, lo), hi)) - math.log10(lo)) / (
        math.log10(hi) - math.log10(lo)) * (x1 - x0)
    body, y = [], 28
    body.append(text(12, y, title, 15, weight="bold"))
    y += 20
    body.append(text(12, y, f"Futures' time per operation ÷ the peer's (p50, run {run}); "
                 "left of 1× Futures is faster. Log scale.", 12, fill="#4a5568"))
    y += 22
    body += legend(12, y, peers)
    y += 16
    top = y
    bar_h, gap = 14, 10
    lines = []
    for workload in workloads:
        if workload not in rows:
            continue
        desc, cells = rows[workload]
        ours = time_ns(cells.get("Futures"))
        bars = [(p, ours / time_ns(cells[p])) for p in peers if ours and time_ns(cells.get(p))]
        if not bars:
            continue
        block = max(len(bars) * (bar_h + 2), 36)
        label_y = y + block / 2 + 4
        body.append(text(12, label_y - 7, workload, 13, weight="bold"))
        body.append(text(12, label_y + 8, short(desc), 10, fill="#4a5568"))
        end = y + block
        y += (block - len(bars) * (bar_h + 2)) / 2
        for peer, ratio in bars:
            a, b = sorted((scale(1.0), scale(ratio)))
            body.append(f'<rect x="{a:.1f}" y="{y:.1f}" width="{max(b - a, 1):.1f}" height="{bar_h}" '
                        f'fill="{COLORS[peer]}"><title>{esc(workload)}: Futures ÷ {esc(NAMES[peer])} = '
                        f'{fmt_ratio(ratio)}</title></rect>')
            if ratio < 1:
                body.append(text(a - 4, y + 11, fmt_ratio(ratio), 11, anchor="end"))
            else:
                body.append(text(b + 4, y + 11, fmt_ratio(ratio), 11))
            y += bar_h + 2
        y = end
        lines.append(y + gap / 2)
        y += gap
    bottom = y
    for tick in (0.1, 1, 10):
        x = scale(tick)
        colour, w = ("#1a202c", 1.5) if tick == 1 else ("#cbd5e0", 1)
        body.insert(3, f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{bottom}" stroke="{colour}" '
                    f'stroke-width="{w}"/>')
        body.append(text(x, bottom + 16, f"{tick:g}×", 11, anchor="middle", fill="#4a5568"))
    for line_y in lines[:-1]:
        body.insert(3, f'<line x1="12" y1="{line_y:.1f}" x2="{x1}" y2="{line_y:.1f}" stroke="#edf2f7"/>')
    body.append(text(scale(1) - 8, bottom + 34, "◀ Futures faster", 12, anchor="end", fill="#2b6cb0"))
    body.append(text(scale(1) + 8, bottom + 34, "Futures slower ▶", 12, fill="#c53030"))
    return svg(WIDTH, int(bottom + 48), title, body)


def mallocs_chart(rows, workloads, run, title):
    """Mallocs per operation of every library (linear scale; a ratio is undefined where a side makes 0)."""
    body, y = [], 28
    body.append(text(12, y, title, 15, weight="bold"))
    y += 20
    body.append(text(12, y, f"Mallocs per operation (per element for batch workloads), run {run}; "
                 "fewer is better.", 12, fill="#4a5568"))
    y += 22
    body += legend(12, y, LIBRARIES)
    y += 16
    data = []
    for workload in workloads:
        if workload not in rows:
            continue
        desc, cells = rows[workload]
        bars = [(l, mallocs(cells.get(l))) for l in LIBRARIES if mallocs(cells.get(l)) is not None]
        if bars:
            data.append((workload, desc, bars))
    most = max(m for _, _, bars in data for _, m in bars)
    x0, x1 = LABEL_W + 20, WIDTH - 60
    top = y
    bar_h, gap = 12, 10
    lines = []
    for workload, desc, bars in data:
        block = max(len(bars) * (bar_h + 2), 36)
        label_y = y + block / 2 + 4
        body.append(text(12, label_y - 7, workload, 13, weight="bold"))
        body.append(text(12, label_y + 8, short(desc), 10, fill="#4a5568"))
        end = y + block
        y += (block - len(bars) * (bar_h + 2)) / 2
        for library, m in bars:
            w = (x1 - x0) * m / most
            body.append(f'<rect x="{x0}" y="{y:.1f}" width="{max(w, 1):.1f}" height="{bar_h}" '
                        f'fill="{COLORS[library]}"><title>{esc(workload)}, {esc(NAMES[library])}: '
                        f'{fmt_count(m)} mallocs</title></rect>')
            body.append(text(x0 + max(w, 1) + 4, y + 10, fmt_count(m), 11))
            y += bar_h + 2
        y = end
        lines.append(y + gap / 2)
        y += gap
    bottom = y
    body.insert(3, f'<line x1="{x0}" y1="{top - 4}" x2="{x0}" y2="{bottom}" stroke="#1a202c"/>')
    for line_y in lines[:-1]:
        body.insert(3, f'<line x1="12" y1="{line_y:.1f}" x2="{WIDTH - 12}" y2="{line_y:.1f}" stroke="#edf2f7"/>')
    return svg(WIDTH, int(bottom + 10), title, body)


def short(desc, limit=26):
    """The start of a workload's description, cut at a word, for the chart's row label."""
    desc = re.sub(r"\s*\(.*?\)", "", desc)
    if len(desc) <= limit:
        return desc
    cut = desc[:limit].rsplit(" ", 1)[0].rstrip(",:;")
    return cut + "…"


# ---------------------------------------------------------------------------------------------------
# Tables for the Performance article


SHORT = {"Futures": "Futures", "NIO": "NIO", "OpenCombine": "Combine", "AsyncAwait": "async",
         "Closure": "closures", "Naive": "naive"}


def tables(rows, run):
    peers = LIBRARIES
    head = "| workload | " + " | ".join(SHORT[l] for l in peers) + " |"
    rule = "|---|" + "---:|" * len(peers)

    def table(title, value, fmt):
        out = [title, "", head, rule]
        for workload, (_, cells) in rows.items():
            values = [value(cells.get(l)) for l in peers]
            if all(v is None for v in values):
                continue
            out.append(f"| {workload} | " + " | ".join("–" if v is None else fmt(v) for v in values) + " |")
        return "\n".join(out) + "\n"

    def ns(v):
        return f"{v:,.0f}" if v >= 100 else f"{v:.0f}"

    print(table(f"Time per operation, **ns** (p50; per element for the batch workloads), run `{run}`:",
                time_ns, ns))
    print(table("**Mallocs** per operation (per element for the batch workloads):", mallocs, fmt_count))
    print(table("Requested **bytes** per operation (`mallocBytesCount`):", bytes_per_op, str))
    print(table("Peak resident memory of the process, **MB**:", peak_rss, str))


# ---------------------------------------------------------------------------------------------------
# Diagrams


def box(x, y, w, h, lines, fill="#ebf4ff", stroke="#2b6cb0", size=13, bold_first=True):
    parts = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{fill}" stroke="{stroke}" '
             f'stroke-width="1.5"/>']
    start = y + h / 2 - (len(lines) - 1) * (size + 3) / 2 + size / 3
    for i, line in enumerate(lines):
        parts.append(text(x + w / 2, start + i * (size + 3), line, size if i == 0 else size - 1,
                          anchor="middle", weight="bold" if i == 0 and bold_first else "normal"))
    return parts


def arrow(x1, y1, x2, y2, colour="#4a5568", dashed=False, label=None, label_dx=0, label_dy=-6):
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    parts = [f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="1.6"'
             f'{dash} marker-end="url(#head-{colour[1:]})"/>']
    if label:
        parts.append(text((x1 + x2) / 2 + label_dx, (y1 + y2) / 2 + label_dy, label, 11, anchor="middle",
                          fill=colour))
    return parts


def markers(*colours):
    defs = "".join(f'<marker id="head-{c[1:]}" markerWidth="10" markerHeight="8" refX="9" refY="4" '
                   f'orient="auto"><path d="M0,0 L10,4 L0,8 z" fill="{c}"/></marker>' for c in colours)
    return [f"<defs>{defs}</defs>"]


def consumer_rule():
    title = "The consumer rule: shared work is asked to cancel only when every consumer has asked"
    body = markers("#4a5568", "#c53030", "#2f855a")
    body += heading("The consumer rule", [
        "Shared work is asked to cancel only when every consumer has asked. Every consumer registered",
        "while it is pending counts; a plain callback or waiter never asks; an observer is not a consumer."])
    body += box(290, 70, 180, 56, ["shared work", "download(file): a handler"], fill="#fefcbf",
                stroke="#b7791f")
    consumers = [
        (20, ["preview = shared.map(…)", "asked ✔"], "#c53030", "#fff5f5"),
        (205, ["thumb = shared.map(…)", "asked ✔"], "#c53030", "#fff5f5"),
        (390, ["shared.onSuccess { … }", "callback: never asks"], "#4a5568", "#f7fafc"),
        (575, ["try await shared.get()", "waiter: never asks"], "#4a5568", "#f7fafc"),
    ]
    for x, lines, stroke, fill in consumers:
        body += box(x, 190, 170, 52, lines, fill=fill, stroke=stroke, size=12)
        body += arrow(x + 85, 190, 380 + (x - 297) / 6, 128, colour="#4a5568")
    body.append(text(12, 150, "consumers of one", 11, fill="#4a5568", italic=True))
    body.append(text(12, 164, "shared future", 11, fill="#4a5568", italic=True))
    body += box(620, 70, 120, 56, ["shared.observe", "not a consumer"], fill="#f0fff4", stroke="#2f855a",
                size=12)
    body += arrow(620, 98, 472, 98, colour="#2f855a", dashed=True)
    body.append(text(12, 278, "Outcome", 13, weight="bold"))
    rows = [
        ("preview and thumb asked; the callback and the waiter did not:", "the work keeps running",
         "#2f855a"),
        ("every consumer asked (or was taken back):", "the work's handlers run once", "#c53030"),
        ("get(onTaskCancellation: .leave):", "the waiter leaves as a consumer that asked", "#2b6cb0"),
        ("consumer():", "one more consumer: a request on it is its ask", "#2b6cb0"),
    ]
    y = 300
    for left, right, colour in rows:
        body.append(text(24, y, "• " + left, 12))
        body.append(text(420, y, right, 12, weight="bold", fill=colour))
        y += 20
    return svg(WIDTH, y + 6, title, body)


def cell_states():
    title = "The cell's states: pending until completed once; a cancellation request while pending"
    body = markers("#4a5568", "#c53030", "#2b6cb0")
    body += heading("The cell's states", [
        "Pending until completed once; a cancellation request while pending. One lock guards the state",
        "words and the flag word; every action runs after unlocking."])
    body += box(20, 76, 230, 130, ["pending", "pending list (in order):", "callbacks, wake-ups (waiters),",
                                   "observers, cancellation handlers,", "removable entries (tombstones)"],
                fill="#ebf4ff", stroke="#2b6cb0", size=12)
    body += box(500, 76, 240, 130, ["completed(result)", "the value or the error", "in the state words;",
                                    "later callbacks run at once", "(or queue behind a hand-out)"],
                fill="#f0fff4", stroke="#2f855a", size=12)
    body += arrow(252, 120, 497, 120, label="complete(r): first one wins", label_dy=-8)
    body.append(text(375, 140, "hands callbacks out in order,", 11, anchor="middle", fill="#4a5568"))
    body.append(text(375, 154, "drops the cancellation handlers", 11, anchor="middle", fill="#4a5568"))
    body += arrow(497, 180, 252, 180, colour="#c53030", dashed=True,
                  label="complete again: refused, reported", label_dy=16)
    body += box(20, 250, 230, 58, ["requestCancellation()", "first time while pending"], fill="#fff5f5",
                stroke="#c53030", size=12)
    body += arrow(100, 206, 100, 248, colour="#c53030")
    body += arrow(170, 248, 170, 208, colour="#c53030", label="handlers run once", label_dx=52,
                  label_dy=4)
    body.append(text(270, 270, "sets cancellationRequested; the future stays pending —", 11, fill="#4a5568"))
    body.append(text(270, 285, "the producer decides how it completes", 11, fill="#4a5568"))
    body.append(text(12, 336, "The flag word (Atomic<UInt16>, written under the lock)", 13, weight="bold"))
    flags = ["cancellation­Requested", "completed", "handingOut", "accepts­Cancellation", "tallied", "failed",
             "observed", "hasExtras", "3 tag bits"]
    x = 12
    for flag in flags:
        label = flag.replace("\u00ad", "")
        w = 8 + 6.6 * len(label)
        body.append(f'<rect x="{x:.1f}" y="346" width="{w:.1f}" height="24" fill="#edf2f7" stroke="#a0aec0"/>')
        body.append(text(x + w / 2, 362, label, 11, anchor="middle"))
        x += w
    body.append(text(12, 392, "A settled future (completed, no hand-out in progress) is read with one "
                     "acquiring load of the flags, without the lock.", 12, fill="#4a5568"))
    return svg(WIDTH, 404, title, body)


def threading_model():
    title = "Where callbacks run: the immediate context through the trampoline, other contexts on their queues"
    body = markers("#4a5568", "#2b6cb0", "#2f855a")
    body += heading("Where callbacks run", [
        "The thread that completes the future (or registers on a completed one) runs immediate",
        "callbacks, through the trampoline, and hands the others to their contexts."])
    body += box(20, 80, 200, 60, ["promise.success(v)", "on any thread"], fill="#fefcbf", stroke="#b7791f")
    body += box(280, 70, 210, 80, ["per-thread trampoline", "runs the synchronous work", "in a loop: bounded stack"],
                fill="#ebf4ff", stroke="#2b6cb0", size=12)
    body += arrow(222, 110, 277, 110, colour="#2b6cb0")
    body += box(550, 70, 190, 80, ["immediate context", "callbacks run on this", "thread, in order"],
                fill="#ebf4ff", stroke="#2b6cb0", size=12)
    body += arrow(492, 110, 547, 110, colour="#2b6cb0")
    queues = [(40, ["queue.context", "serial queue: in", "registration order"]),
              (290, ["defaultContext()", "main queue on the main", "thread, else global"]),
              (540, ["ExecutionContext { … }", "wherever your", "function runs the task"])]
    for x, lines in queues:
        body += box(x, 210, 190, 70, lines, fill="#f0fff4", stroke="#2f855a", size=12)
    body += arrow(100, 142, 135, 207, colour="#2f855a")
    body += arrow(140, 142, 385, 207, colour="#2f855a")
    body += arrow(180, 142, 635, 207, colour="#2f855a")
    body.append(text(12, 306, "• Callbacks for other contexts are handed out in registration order; each "
                     "context runs its task later.", 12))
    body.append(text(12, 326, "• A callback runs exactly once, on its context; a busy queue holds back only its "
                     "own callbacks.", 12))
    body.append(text(12, 346, "• Nested completions (a map completing its future inside a callback) are queued "
                     "on the trampoline, not recursed:", 12))
    body.append(text(24, 364, "chains of any depth run in bounded stack.", 12))
    return svg(WIDTH, 376, title, body)


# ---------------------------------------------------------------------------------------------------


def main():
    path, rows = newest_full_run()
    run = path.name.split("-")[0]
    OUT.mkdir(parents=True, exist_ok=True)
    files = {
        "perf-time-headline.svg": time_chart(rows, HEADLINE, run, "Time: W1, W2s, W4 against the peers"),
        "perf-time-more.svg": time_chart(rows, MORE, run, "Time: the other workloads against the peers"),
        "perf-mallocs-headline.svg": mallocs_chart(rows, HEADLINE, run, "Mallocs: W1, W2s, W4"),
        "perf-mallocs-more.svg": mallocs_chart(rows, MORE, run, "Mallocs: the other workloads"),
        "consumer-rule.svg": consumer_rule(),
        "cell-states.svg": cell_states(),
        "threading-model.svg": threading_model(),
    }
    for name, content in files.items():
        (OUT / name).write_text(content)
    print(f"wrote {len(files)} SVGs to {OUT.relative_to(ROOT)} from {path.relative_to(ROOT)}", file=sys.stderr)
    if "--tables" in sys.argv:
        tables(rows, run)


if __name__ == "__main__":
    main()
