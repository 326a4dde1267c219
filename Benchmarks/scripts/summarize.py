#!/usr/bin/env python3
"""Summarises a `swift package benchmark --format markdown` run of FuturesBenchmarks.

    summarize.py RAW              # one run (or the markdown on stdin)
    summarize.py --rounds RAW...  # several runs of the same set (`run.sh --rounds N`), merged

One run: prints three markdown tables: every workload with every library side by side (wall-clock p50 and
mallocs per operation), the ratios against the targets of issue 10 (the naive reference is the `Naive`
column), and the goals of the one path (GOALS below: each cell of this package against the reference its goal
names, measured in the same run). Only figures present in the input are printed; a missing benchmark shows as
"–" or "not measured".

`--rounds`: the goals table over several runs: per cell the median of the per-run ratios, their spread
(min–max), and in how many runs the goal held; then the load average at the start and the end of each run
(`run.sh` writes both into the raw file, as lines the harness's table parser ignores).

Ratios are p50 / p50 of the wall clock, both sides from the same run.
"""
import re
import sys

LIBRARIES = ["Futures", "NIO", "OpenCombine", "AsyncAwait", "Closure", "Naive", "Objects"]

# Operations per sample for the batch benchmarks (one sample = the whole workload). The kilo/mega
# benchmarks are already printed per operation by the harness (rows marked `*`).
OPS_PER_SAMPLE = {
    "W3a": 10_000, "W3b": 10_000, "W3b100k": 100_000,
    "W4": 1_000_000, "W4Completed": 1_000_000, "W6": 100_000, "W7": 8_000,
    "Streams.Memory1M": 1_000_000, "Streams.Memory10M": 10_000_000,
}

WORKLOADS = [
    ("W1One", "completed future, 1 map, observe (immediate)"),
    ("W1", "completed future, 3 maps, observe (immediate)"),
    ("W2s", "pending promise, 3 maps, observe, complete (same thread)"),
    ("W1Task", "W1 on the Bolts face: a succeeded BFTask, 3 continuations, observe (immediate executor)"),
    ("W2sTask", "W2s on the Bolts face: a completion source, 3 continuations, observe, set (same thread)"),
    ("W2One", "pending promise, 1 block on a serial queue, complete, wait"),
    ("W2", "pending promise, 3 blocks on a serial queue, complete, wait"),
    ("W3a", "10,000 pending promises, 1 callback each, completed from another thread"),
    ("W3b", "combine 10,000 futures into one"),
    ("W3b100k", "combine 100,000 futures into one (linearity)"),
    ("W4", "1,000,000 chained flatMaps, pending root"),
    ("W4Completed", "1,000,000 chained flatMaps, completed root"),
    ("W5", "1,000,000 pending futures, 1 capturing callback each (per future)"),
    ("W5Bare", "W5 with a bare Future() instead of a Promise (per future)"),
    ("Map", "one map on a pending future, immediate context"),
    ("MapCompleted", "one map on a completed future, immediate context"),
    ("W6", "2 threads race complete/observe on 100,000 promises"),
    ("W7", "8 threads register 1,000 callbacks each on one pending future, then it completes"),
    ("Streams.Map1", "one value through map + withFilter to 1 subscriber"),
    ("Streams.Map8", "one value through map + withFilter to 8 subscribers"),
    ("Streams.Memory1M", "1,000,000 values through a capacity-16 stream"),
    ("Streams.Memory10M", "10,000,000 values through a capacity-16 stream"),
]

UNIT = {"Streams.Memory1M": "value", "Streams.Memory10M": "value", "Streams.Map1": "value",
        "Streams.Map8": "value", "W3a": "promise", "W3b": "future", "W3b100k": "future", "W4": "step", "W4Completed": "step",
        "W6": "promise", "W7": "callback"}


# The goals of the one path: (cell, what it is, Futures benchmark, reference benchmark, reference name, goal).
# The ratio is Futures p50 / reference p50; the goal holds when the ratio is at most `goal`.
GOALS = [
    ("W1x1", "completed + 1 map + observer", "W1One.Futures", "W1One.Closure", "raw closures", 1.5),
    ("W1x1", "completed + 1 map + observer", "W1One.Futures", "W1One.NIO", "SwiftNIO", 0.20),
    ("W1x3", "completed + 3 maps + observer", "W1.Futures", "W1.NIO", "SwiftNIO", 0.15),
    ("W2s", "pending, 3 maps + observer, then complete", "W2s.Futures", "W2s.NIO", "SwiftNIO", 0.35),
    ("W2x1", "one block on a serial queue, then wait", "W2One.Futures", "W2One.AsyncAwait", "async/await", 1.0),
    ("W2x1", "one block on a serial queue, then wait", "W2One.Futures", "W2One.Closure", "raw Dispatch", 1.1),
    ("W3a", "10k callbacks, completed from another thread", "W3a.Futures", "W3a.Naive", "naive future", 1.0),
    ("W3b", "sequence of 10k", "W3b.Futures", "W3b.Naive", "naive future", 1.0),
    ("W6", "contention, 2 threads", "W6.Futures", "W6.Naive", "naive future", 1.0),
]
# The allocation floor of the cells whose futures are made and dropped in one operation: `<Wn>.Objects`
# allocates and frees the same heap objects as `<Wn>.Futures` (the root and one per `map`), with none of the
# library's work. (cell, Futures benchmark, floor benchmark, the goals' references as (benchmark, name, goal)).
# A goal below floor / reference cannot be met by any future whose `map` returns a new object.
FLOORS = [
    ("W1x1", "W1One.Futures", "W1One.Objects", [("W1One.Closure", "raw closures", 1.5), ("W1One.NIO", "SwiftNIO", 0.20)]),
    ("W1x3", "W1.Futures", "W1.Objects", [("W1.NIO", "SwiftNIO", 0.15)]),
]

# W5: requested bytes per pending promise with one callback (`mallocBytesCount` per future), at most this.
W5_BYTES_GOAL = 112
# W4: the chains of 1,000,000 flatMaps must finish (the benchmark checks the result and stops otherwise).
W4_CELLS = [("W4", "1M flatMaps, pending root", "W4.Futures"),
            ("W4", "1M flatMaps, completed root", "W4Completed.Futures")]

TIME_FACTORS = {"ns": 1.0, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def parse(text):
    """Returns {benchmark: {metric: {"p50": float, "scaled": bool, "samples": int}}} with times in ns."""
    results = {}
    current = None
    for line in text.splitlines():
        heading = re.match(r"^###\s+(\S+)\s*$", line)
        if heading:
            current = results.setdefault(heading.group(1), {})
            continue
        if current is None or not line.startswith("|") or line.startswith("|:") or "Metric" in line:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 9:
            continue
        name = cells[0]
        scaled = name.endswith("*")
        try:
            p0 = float(cells[1].replace(",", ""))
            p50 = float(cells[3].replace(",", ""))
            samples = int(cells[8].replace(",", ""))
        except ValueError:
            continue
        unit = re.search(r"\((ns|μs|us|ms|s)\)", name)
        if name.startswith("Time (wall clock)"):
            key = "time"
            p50 *= TIME_FACTORS[unit.group(1)] if unit else 1.0
            p0 *= TIME_FACTORS[unit.group(1)] if unit else 1.0
        elif name.startswith("Malloc (total)"):
            key = "mallocs"
        elif name.startswith("Malloc (bytes"):
            key = "bytes"
        elif name.startswith("Memory Δ"):
            key = "rssDelta"
        elif name.startswith("Memory (resident peak)"):
            key = "rss"
        else:
            key = name
        current[key] = {"p50": p50, "p0": p0, "scaled": scaled, "samples": samples}
    return results


def per_op(results, bench, key):
    entry = results.get(bench, {}).get(key)
    if entry is None:
        return None
    # Batch benchmarks: one sample is the whole workload, so divide by its size. The others are printed
    # per operation by the harness already (kilo / mega scaling factor, rows marked `*`).
    return entry["p50"] / OPS_PER_SAMPLE.get(bench.rsplit(".", 1)[0], 1)


def per_sample(results, bench, key):
    entry = results.get(bench, {}).get(key)
    if entry is None:
        return None
    value = entry["p50"]
    return value


def fmt_time(ns):
    if ns is None:
        return "–"
    if ns >= 1e9:
        return f"{ns / 1e9:.3g} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.0f} ns"


def fmt_count(value):
    if value is None:
        return "–"
    if value == int(value):
        return f"{int(value)}"
    return f"{value:.2f}"


def cell(results, workload, library):
    bench = f"{workload}.{library}"
    if bench not in results:
        return "–"
    batch = workload in OPS_PER_SAMPLE
    time = per_sample(results, bench, "time")
    mallocs = per_op(results, bench, "mallocs")
    text = fmt_time(time)
    if batch:
        text += f" ({fmt_time(per_op(results, bench, 'time'))} per {UNIT.get(workload, 'op')})"
    text += f", {fmt_count(mallocs)} mallocs/{UNIT.get(workload, 'op')}"
    bytes_ = per_op(results, bench, "bytes")
    if bytes_ is not None:
        text += f", {fmt_count(bytes_)} B/op (requested)"
    rss = per_sample(results, bench, "rss")
    if rss is not None:
        text += f", peak RSS {rss / 1e6:.0f} MB"
    if workload == "W6" and time:
        text += f", {OPS_PER_SAMPLE['W6'] / (time / 1e9) / 1e6:.2f} M ops/s"
    return text


def ratio(results, a, b, percentile="p50"):
    ea = results.get(a, {}).get("time")
    eb = results.get(b, {}).get("time")
    ta = ea[percentile] if ea else None
    tb = eb[percentile] if eb else None
    if ta is None or tb is None or tb == 0:
        return None
    return ta / tb


def verdict(value, limit, smaller_is_better=True):
    if value is None:
        return "not measured"
    ok = value <= limit if smaller_is_better else value >= limit
    return "**met**" if ok else "**missed**"


def loads(text):
    """The load-average lines `run.sh` writes around the harness output: {"start": "…", "end": "…"}."""
    found = {}
    for line in text.splitlines():
        match = re.match(r"^Load average at the (start|end):\s*(.*)$", line.strip())
        if match:
            found[match.group(1)] = match.group(2)
    return found


def goal_rows(results):
    """One dict per goal row of one run: cell, what, futures/reference figures, ratio, goal text, held."""
    rows = []
    for cell_name, what, bench, ref, ref_name, limit in GOALS:
        rows.append({
            "key": f"{cell_name} vs {ref_name}", "cell": cell_name, "what": what,
            "futures": per_sample(results, bench, "time"), "reference": per_sample(results, ref, "time"),
            "bench": bench, "ref": ref, "ref_name": ref_name,
            "ratio": ratio(results, bench, ref), "goal": f"≤ {limit:.2f}×", "limit": limit, "kind": "ratio",
        })
    futures_bytes = per_op(results, "W5.Futures", "bytes")
    rows.append({
        "key": "W5 bytes", "cell": "W5", "what": "heap per pending promise + callback (requested bytes)",
        "futures": futures_bytes, "reference": per_op(results, "W5.Naive", "bytes"),
        "bench": "W5.Futures", "ref": "W5.Naive", "ref_name": "naive future (for scale)",
        "ratio": futures_bytes, "goal": f"≤ {W5_BYTES_GOAL} B", "limit": W5_BYTES_GOAL, "kind": "bytes",
    })
    for cell_name, what, bench in W4_CELLS:
        time = per_sample(results, bench, "time")
        rows.append({
            "key": f"{cell_name} {what}", "cell": cell_name, "what": what, "futures": time, "reference": None,
            "bench": bench, "ref": None, "ref_name": "–", "ratio": time,
            "goal": "finishes (keep)", "limit": None, "kind": "depth",
        })
    return rows


def floor_rows(results):
    """One dict per floor row of one run: the floor's time, floor / reference, Futures / floor."""
    rows = []
    for cell_name, bench, floor, references in FLOORS:
        for ref, ref_name, limit in references:
            rows.append({
                "key": f"{cell_name} vs {ref_name}", "cell": cell_name, "ref_name": ref_name, "limit": limit,
                "floor": per_sample(results, floor, "time"), "floor_ratio": ratio(results, floor, ref),
                "over_floor": ratio(results, bench, floor),
            })
    return rows


def print_floors(runs):
    """The floor table over one or more runs (medians, with the spread when there are several)."""
    print("The allocation floor (`<Wn>.Objects`: the same heap objects as `<Wn>.Futures`, none of the library's "
          "work): the floor against each goal's reference, and Futures against the floor.")
    print()
    print("| cell | floor | floor / reference | goal | Futures / floor |")
    print("|---|---|---|---|---|")
    for index, first in enumerate(runs[0]):
        rows = [run[index] for run in runs]

        def shown(key, render):
            values = [row[key] for row in rows if row[key] is not None]
            if not values:
                return "–"
            if len(values) == 1:
                return render(values[0])
            return f"{render(median(values))} ({render(min(values))}–{render(max(values))})"

        print(f"| **{first['cell']}** vs {first['ref_name']} | {shown('floor', fmt_time)} | "
              f"{shown('floor_ratio', lambda v: f'{v:.2f}×')} | ≤ {first['limit']:.2f}× | "
              f"{shown('over_floor', lambda v: f'{v:.2f}×')} |")


def held(row):
    if row["ratio"] is None:
        return None
    if row["kind"] == "depth":
        return True  # the benchmark stops with a fatal error when the chain does not finish
    return row["ratio"] <= row["limit"]


def fmt_figure(row, value):
    if value is None:
        return "–"
    if row["kind"] == "bytes":
        return f"{fmt_count(value)} B"
    return fmt_time(value)


def fmt_ratio(row, value):
    if value is None:
        return "–"
    if row["kind"] == "bytes":
        return f"{fmt_count(value)} B"
    if row["kind"] == "depth":
        return "finished"
    return f"{value:.2f}×"


def print_goals(results):
    print("| cell | Futures | reference | ratio | goal | verdict |")
    print("|---|---|---|---|---|---|")
    for row in goal_rows(results):
        ok = held(row)
        shown = "not measured" if ok is None else ("**met**" if ok else "**missed**")
        reference = f"{row['ref_name']}: {fmt_figure(row, row['reference'])}" if row["ref"] else "–"
        print(f"| **{row['cell']}** {row['what']} | {fmt_figure(row, row['futures'])} | {reference} | "
              f"{fmt_ratio(row, row['ratio'])} | {row['goal']} | {shown} |")


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def print_rounds(paths):
    runs = []
    for path in paths:
        text = open(path).read()
        runs.append((path, goal_rows(parse(text)), loads(text)))
    count = len(runs)
    print(f"Goals over {count} runs: the median of the per-run values, the spread (min–max) over the runs, "
          f"and in how many runs the goal held.")
    print()
    print("| cell | Futures (median) | reference (median) | median ratio | spread (min–max) | goal | verdict |")
    print("|---|---|---|---|---|---|---|")
    for index, first in enumerate(runs[0][1]):
        rows = [run[1][index] for run in runs]
        measured = [row for row in rows if row["ratio"] is not None]
        futures = [row["futures"] for row in measured if row["futures"] is not None]
        references = [row["reference"] for row in measured if row["reference"] is not None]
        if not measured:
            reference = f"{first['ref_name']}: –" if first["ref"] else "–"
            print(f"| **{first['cell']}** {first['what']} | – | {reference} | – | – | {first['goal']} | not measured |")
            continue
        ratios = [row["ratio"] for row in measured]
        holds = sum(1 for row in measured if held(row))
        missing = count - len(measured)
        if missing:
            verdict = f"incomplete: held in {holds} of the {len(measured)} runs that measured it"
        else:
            verdict = ("**met**" if holds == count else "**missed**") + f" (held in {holds} of {count} runs)"
        reference = f"{first['ref_name']}: {fmt_figure(first, median(references)) if references else '–'}" \
            if first["ref"] else "–"
        if first["kind"] == "depth":
            shown_ratio = "finished"
            spread = f"{fmt_time(min(ratios))} – {fmt_time(max(ratios))}"
        else:
            shown_ratio = fmt_ratio(first, median(ratios))
            spread = f"{fmt_ratio(first, min(ratios))} – {fmt_ratio(first, max(ratios))}"
        print(f"| **{first['cell']}** {first['what']} | {fmt_figure(first, median(futures))} | {reference} | "
              f"{shown_ratio} | {spread} | {first['goal']} | {verdict} |")
    print()
    if any(row["floor"] is not None for run in runs for row in floor_rows(parse(open(run[0]).read()))):
        print_floors([floor_rows(parse(open(run[0]).read())) for run in runs])
        print()
    print("| run | raw file | load average at the start | load average at the end |")
    print("|---|---|---|---|")
    for number, (path, _, load) in enumerate(runs, 1):
        print(f"| {number} | `{path}` | {load.get('start', '–')} | {load.get('end', '–')} |")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--rounds":
        if len(sys.argv) < 3:
            sys.exit("usage: summarize.py --rounds RAW...")
        print_rounds(sys.argv[2:])
        return
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    results = parse(text)

    print("| workload | " + " | ".join(LIBRARIES) + " |")
    print("|---|" + "---|" * len(LIBRARIES))
    for workload, description in WORKLOADS:
        if not any(f"{workload}.{lib}" in results for lib in LIBRARIES):
            continue
        row = [cell(results, workload, lib) for lib in LIBRARIES]
        print(f"| **{workload}**: {description} | " + " | ".join(row) + " |")
    print()

    print("| target (issue 10) | measured (p50 / p50) | verdict | min / min (p0), for noise |")
    print("|---|---|---|---|")

    def ratio_row(label, a, b, limit, smaller=True):
        value = ratio(results, a, b)
        low = ratio(results, a, b, "p0")
        if value is None:
            return
        if not smaller:  # throughput ratio = inverse time ratio
            value, low = 1 / value, (1 / low if low else None)
        unit = "×" if smaller else "× (throughput)"
        shown_low = f"{low:.2f}{unit}" if low is not None else "–"
        if limit is None:
            print(f"| {label} | {value:.2f}{unit} | (no target) | {shown_low} |")
            return
        print(f"| {label} | {value:.2f}{unit} | {verdict(value, limit, smaller)} | {shown_low} |")

    ratio_row("W1One Futures / NIO ≤ 0.5×", "W1One.Futures", "W1One.NIO", 0.5)
    ratio_row("W1 (3 maps) Futures / NIO ≤ 0.3×", "W1.Futures", "W1.NIO", 0.3)
    ratio_row("W2s Futures / NIO ≤ 0.5×", "W2s.Futures", "W2s.NIO", 0.5)
    ratio_row("W2One Futures / async/await ≤ 1.0×", "W2One.Futures", "W2One.AsyncAwait", 1.0)
    ratio_row("W2One Futures / raw GCD ≤ 1.1×", "W2One.Futures", "W2One.Closure", 1.1)
    ratio_row("W2 (3 blocks) Futures / raw GCD", "W2.Futures", "W2.Closure", None)
    ratio_row("W3a Futures / naive ≤ 1.0×", "W3a.Futures", "W3a.Naive", 1.0)
    ratio_row("W3a Futures / NIO", "W3a.Futures", "W3a.NIO", None)
    ratio_row("W3b Futures / naive ≤ 1.0×", "W3b.Futures", "W3b.Naive", 1.0)
    ratio_row("W3b Futures / NIO", "W3b.Futures", "W3b.NIO", None)
    linear = ratio(results, "W3b100k.Futures", "W3b.Futures")
    if linear is not None:
        # Linear in n: 10× the futures should take about 10× the time (≤ 13× allows cache effects).
        print(f"| W3b linear in n: time(100,000) / time(10,000) ≈ 10 (≤ 13) | {linear:.2f} | "
              f"{verdict(linear, 13)} | {ratio(results, 'W3b100k.Futures', 'W3b.Futures', 'p0'):.2f} |")
    ratio_row("W6 Futures / naive ≤ 1.0×", "W6.Futures", "W6.Naive", 1.0)
    ratio_row("W6 Futures / NIO", "W6.Futures", "W6.NIO", None)
    ratio_row("W7 Futures / naive", "W7.Futures", "W7.Naive", None)
    ratio_row("W7 Futures / NIO", "W7.Futures", "W7.NIO", None)
    ratio_row("W4 pending root Futures / NIO ≤ 0.5×", "W4.Futures", "W4.NIO", 0.5)
    ratio_row("W4 completed root Futures / NIO", "W4Completed.Futures", "W4Completed.NIO", None)
    for bench in ["W5.Futures", "W5Bare.Futures"]:
        mallocs = per_op(results, bench, "mallocs")
        bytes_ = per_op(results, bench, "bytes")
        if mallocs is not None:
            print(f"| {bench}: mallocs per pending future | {fmt_count(mallocs)} | (no target) | |")
        if bytes_ is not None and bench == "W5.Futures":
            print(f"| {bench}: ≤ 112 bytes per pending future with its promise (requested bytes) | "
                  f"{fmt_count(bytes_)} | {verdict(bytes_, 112)} | |")
        elif bytes_ is not None:
            print(f"| {bench}: bytes per pending future (requested) | {fmt_count(bytes_)} | (no target) | |")
    for bench in ["Map.Futures", "MapCompleted.Futures"]:
        mallocs = per_op(results, bench, "mallocs")
        if mallocs is not None:
            print(f"| {bench}: a map on the immediate context ≤ 2 mallocs | {fmt_count(mallocs)} | "
                  f"{verdict(mallocs, 2)} | |")
    for bench in ["Streams.Map1.Futures", "Streams.Map8.Futures"]:
        ns = per_sample(results, bench, "time")
        if ns:
            rate = 1e3 / ns  # M values per second
            print(f"| {bench}: ≥ 5 M values/s (one value = one `success`) | {rate:.2f} M values/s | "
                  f"{verdict(rate, 5, smaller_is_better=False)} | |")
    small = per_sample(results, "Streams.Memory1M.Futures", "rss")
    large = per_sample(results, "Streams.Memory10M.Futures", "rss")
    if small and large:
        growth = large / small
        print(f"| Streams: memory flat over 10 M values: peak RSS(10 M) / peak RSS(1 M) ≤ 1.1 | "
              f"{large / 1e6:.0f} MB / {small / 1e6:.0f} MB = {growth:.2f} | {verdict(growth, 1.1)} | |")
    print()

    print_goals(results)
    if any(row["floor"] is not None for row in floor_rows(results)):
        print()
        print_floors([floor_rows(results)])


if __name__ == "__main__":
    main()
