#!/usr/bin/env python3
"""The summary benchmark under two release profiles, side by side.

Users build the crate with their own profile: cargo's release defaults
(16 codegen units, no LTO) or a speed-minded one (`codegen-units = 1`,
`lto = "fat"`, the crate's `speed` profile). This builds
`cargo bench --bench summary` under both, runs the two binaries in turn
(`--runs` of each, alternating, so both see the same machine), and takes
per row the median over the runs of the "vs ChaCha" ratio (the summary's
own same-run median: ChaCha20-Poly1305 is built with the same profile).

    python3 benches/profiles.py            # print the table
    python3 benches/profiles.py --write F  # and write it as a report data file

The table's last column is the speed profile's ratio over the default's:
within 0.9-1.1 means the build profile does not change the crate's speed
relative to its peer.
"""

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROFILES = [("release defaults", "bench"), ("1 codegen unit + fat LTO", "speed")]
# "  1500 B  Dumbo   ns  MB/s  ratio  kernels" and "256×16  Dumbo  ns  ratio  ratio  kernels".
SIZE_ROW = re.compile(r"^\s*(\d+) B\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s")
MANY_ROW = re.compile(r"^\s*(\d+)×(\d+)\s+(\S+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s")
ELEPHANTS = ("Dumbo", "Jumbo", "Delirium")


def binary(profile):
    """Builds the summary under `profile`; returns the executable's path."""
    out = subprocess.run(
        ["cargo", "bench", "--bench", "summary", "--profile", profile, "--no-run",
         "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    paths = re.findall(r'"executable":"([^"]+summary[^"]*)"', out)
    if not paths:
        sys.exit(f"no summary executable built for profile {profile}")
    return paths[-1]


def run(executable):
    """One summary run: {(row label): ratio to ChaCha20-Poly1305}."""
    out = subprocess.run([executable, "--bench"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    ratios = {}
    for line in out.splitlines():
        if m := SIZE_ROW.match(line):
            size, name, ratio = m.group(1), m.group(2), m.group(5)
            if name in ELEPHANTS:
                ratios[(name, f"{size} B")] = float(ratio)
        elif m := MANY_ROW.match(line):
            count, size, name, ratio = m.group(1), m.group(2), m.group(3), m.group(5)
            if name in ELEPHANTS:
                ratios[(name, f"{count} × {size} B")] = float(ratio)
    if len(ratios) != 3 * len(ELEPHANTS) + len(ELEPHANTS):
        sys.exit(f"unexpected summary output:\n{out}")
    return ratios


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per profile (default 5)")
    parser.add_argument("--write", metavar="FILE", help="write the table as a data file")
    args = parser.parse_args()
    executables = [binary(profile) for _, profile in PROFILES]
    samples = [dict() for _ in PROFILES]
    for i in range(args.runs):
        for which, executable in enumerate(executables):
            for key, ratio in run(executable).items():
                samples[which].setdefault(key, []).append(ratio)
        print(f"run {i + 1} of {args.runs} done", file=sys.stderr)
    medians = [{key: statistics.median(v) for key, v in s.items()} for s in samples]
    header = ["cipher", "message", *(f"× ChaCha20-Poly1305 ({name})" for name, _ in PROFILES),
              "speed profile / defaults"]
    rows = []
    for key in medians[0]:
        default, speed = medians[0][key], medians[1][key]
        rows.append([*key, f"{default:.3f}", f"{speed:.3f}", f"{speed / default:.2f}"])
    rows.sort(key=lambda row: (ELEPHANTS.index(row[0]), "×" in row[1], int(row[1].split()[0])))
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if args.write:
        path = Path(args.write)
        meta = [line for line in path.read_text().splitlines() if line.startswith("# ")] \
            if path.exists() else []
        if not meta:
            sys.exit(f"{path}: write the `# key: value` header first; the rows are replaced")
        text = "\n".join(meta + [",".join(header)] + [",".join(row) for row in rows]) + "\n"
        path.write_text(text)
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
