"""One-screen benchmark of the Python package against pyca/cryptography.

Prints, in one run, the time per ``encrypt`` call of Dumbo, Jumbo and
Delirium next to pyca's ChaCha20Poly1305 and AESGCM (128-bit key) at 16,
1500 and 16384 bytes with 5 bytes of associated data, then the time per
packet of 16-byte packets, each with its own key, sealed 1, 16 and 256 to a
call: one ``seal_many`` call for the Elephants, a Python loop of
``encrypt`` calls for pyca's.

Method: each figure is the minimum over rounds of the mean time of a loop
of calls (about 2 ms each, the garbage collector off, as timeit does); the
rounds go through every case in turn, so that a burst of load on the
machine hits all of them alike.

Usage, with the package and ``cryptography`` installed:

    python python/bench.py                # the tables
    python python/bench.py --write-data   # and tools/bench-report/data/python*.csv

then ``cargo run --manifest-path tools/bench-report/Cargo.toml`` regenerates
BENCHMARKS.md from the data files.
"""

import argparse
import gc
import os
import pathlib
import time

from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

import elephant_aead

SIZES = [16, 1500, 16384]
PACKETS = [1, 16, 256]
PACKET_SIZE = 16
AD = b"\x00" * 5

# The names the benchmark report uses (its reference is ChaCha20-Poly1305).
CIPHERS = {
    "Dumbo": lambda: elephant_aead.Dumbo(os.urandom(16)),
    "Jumbo": lambda: elephant_aead.Jumbo(os.urandom(16)),
    "Delirium": lambda: elephant_aead.Delirium(os.urandom(16)),
    "ChaCha20-Poly1305": lambda: ChaCha20Poly1305(os.urandom(32)),
    "AES-128-GCM": lambda: AESGCM(os.urandom(16)),
}

DATA = pathlib.Path(__file__).resolve().parents[1] / "tools" / "bench-report" / "data"


def single(name, size):
    """A loop body: one encryption of ``size`` bytes."""
    cipher, nonce, data = CIPHERS[name](), os.urandom(12), os.urandom(size)
    encrypt = cipher.encrypt
    return lambda: encrypt(nonce, data, AD)


def many(name, count):
    """A loop body: ``count`` packets sealed, each with its own key."""
    packets = [
        (CIPHERS[name](), os.urandom(12), os.urandom(PACKET_SIZE), AD)
        for _ in range(count)
    ]
    if name in ("Dumbo", "Jumbo", "Delirium"):
        seal_many = getattr(elephant_aead, name).seal_many
        return lambda: seal_many(packets)

    def one_at_a_time():
        for cipher, nonce, data, ad in packets:
            cipher.encrypt(nonce, data, ad)

    return one_at_a_time


def loop_size(body, target=0.002):
    """How many calls of ``body`` take about ``target`` seconds."""
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            body()
        if time.perf_counter() - start >= target / 4:
            return max(1, int(calls * target / (time.perf_counter() - start)))
        calls *= 2


def measure(cases, rounds):
    """The minimum over ``rounds`` of each case's mean time in ns,
    divided by its units (packets per call)."""
    # As timeit: without the collector, whose pauses would land on the same
    # case round after round.
    gc.disable()
    loops = {key: (body, loop_size(body), units) for key, (body, units) in cases.items()}
    best = {key: float("inf") for key in cases}
    for _ in range(rounds):
        for key, (body, calls, units) in loops.items():
            start = time.perf_counter_ns()
            for _ in range(calls):
                body()
            elapsed = time.perf_counter_ns() - start
            best[key] = min(best[key], elapsed / calls / units)
    gc.enable()
    return best


def duration(ns):
    """As the benchmark report writes times: three significant digits."""
    if ns < 1000:
        return f"{ns:.0f} ns"
    if ns < 10_000:
        return f"{ns / 1000:.2f} µs"
    if ns < 100_000:
        return f"{ns / 1000:.1f} µs"
    return f"{ns / 1000:.0f} µs"


def tables(results):
    """The two Markdown tables."""
    lines = ["| encryption, 5 B AD | " + " | ".join(f"{s} B" for s in SIZES) + " |"]
    lines.append("|---|" + "---:|" * len(SIZES))
    for name in CIPHERS:
        cells = []
        for size in SIZES:
            ns = results[("single", name, size)]
            ratio = results[("single", "ChaCha20-Poly1305", size)] / ns
            cells.append(f"{duration(ns)} ({ratio:.2f}×)")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("| 16 B packets, time per packet | " + " | ".join(CIPHERS) + " |")
    lines.append("|---|" + "---:|" * len(CIPHERS))
    for count in PACKETS:
        cells = [duration(results[("many", name, count)]) for name in CIPHERS]
        lines.append(f"| {count} per call | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_data(results):
    """Replaces the rows of the two data files, keeping their headers."""
    rows = {
        "python.csv": ["instance,bytes,ns"]
        + [
            f"{name},{size},{results[('single', name, size)]:.0f}"
            for name in CIPHERS
            for size in SIZES
        ],
        "python-many-messages.csv": ["packet,packets per call," + ",".join(CIPHERS)]
        + [
            f"{PACKET_SIZE} B,{count},"
            + ",".join(f"{results[('many', name, count)]:.0f}" for name in CIPHERS)
            for count in PACKETS
        ],
    }
    for file, lines in rows.items():
        path = DATA / file
        meta = [line for line in path.read_text().splitlines() if line.startswith("# ")]
        path.write_text("\n".join(meta + lines) + "\n")
        print(f"wrote {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--write-data",
        action="store_true",
        help="also write the figures into tools/bench-report/data/python*.csv",
    )
    args = parser.parse_args()
    cases = {}
    for name in CIPHERS:
        for size in SIZES:
            cases[("single", name, size)] = (single(name, size), 1)
        for count in PACKETS:
            cases[("many", name, count)] = (many(name, count), count)
    results = measure(cases, args.rounds)
    print(tables(results))
    if args.write_data:
        write_data(results)


if __name__ == "__main__":
    main()
