#!/usr/bin/env python3
"""Summarises a `swift package benchmark --format markdown` run of FuturesBenchmarks.

Reads the markdown on stdin (or a file given as argument), prints two markdown tables: every workload
with every library side by side (wall-clock p50 and mallocs per operation), and the ratios against the
targets of issue 10 (the naive reference is the `Naive` column). Only figures present in the input are printed; a missing benchmark shows as "–".
"""
import re
import sys

LIBRARIES = ["Futures", "NIO", "OpenCombine", "AsyncAwait", "Closure", "Naive"]

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


def main():
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


if __name__ == "__main__":
    main()
