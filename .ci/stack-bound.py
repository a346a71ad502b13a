#!/usr/bin/env python3
"""Worst-case stack of a bare-metal Arm (Thumb) program, from its call graph.

Usage: stack-bound.py READOBJ_STACK_SIZES OBJDUMP_DISASSEMBLY ENTRY

READOBJ_STACK_SIZES is `llvm-readobj --stack-sizes` of an ELF built with
nightly `-Z emit-stack-sizes`; OBJDUMP_DISASSEMBLY is `llvm-objdump -d` of
the same ELF. Functions without a recorded frame (the precompiled
compiler_builtins) are charged what their prologue pushes and subtracts.
Prints the deepest call chain from ENTRY and its total in bytes. Fails on
recursion and on indirect calls, where a static bound would be a guess.
"""

import re
import sys


def frame_sizes(readobj_text):
    sizes = {}
    names = []
    for line in readobj_text.splitlines():
        match = re.search(r"Functions: \[(.*)\]", line)
        if match:
            names = match.group(1).split(", ")
            continue
        match = re.search(r"Size: 0x([0-9A-Fa-f]+)", line)
        if match:
            for name in names:
                sizes[name] = int(match.group(1), 16)
    return sizes


def prologue_size(lines):
    """Bytes pushed and subtracted from sp at the start of a function."""
    total = 0
    for line in lines[:8]:
        match = re.search(r"\bv?push(?:\.w)?\s+\{([^}]*)\}", line)
        if match:
            regs = 0
            for part in match.group(1).split(","):
                part = part.strip()
                if "-" in part:
                    low, high = (int(r[1:]) for r in part.split("-"))
                    regs += (high - low + 1) * (2 if part.startswith("d") else 1)
                else:
                    regs += 2 if part.startswith("d") else 1
            total += 4 * regs
        match = re.search(r"\bsub(?:\.w)?\s+sp,\s*(?:sp,\s*)?#(0x[0-9a-f]+|\d+)", line)
        if match:
            total += int(match.group(1), 0)
    return total


def call_graph(objdump_text):
    bodies = {}
    current = None
    for line in objdump_text.splitlines():
        header = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if header:
            current = header.group(1)
            bodies[current] = []
        elif current is not None and line.strip():
            bodies[current].append(line)
    calls = {}
    for name, lines in bodies.items():
        targets = set()
        for line in lines:
            if re.search(r"\bblx\s+r\d+|\bbx\s+r(?!14\b)\d+|\bmov\s+pc", line):
                sys.exit(f"indirect call or jump in {name}: {line.strip()}")
            match = re.search(r"\b(?:bl|b|b\.w|b\.n)\s+0x[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>", line)
            if match and match.group(1) != name:
                targets.add(match.group(1))
        calls[name] = targets
    return bodies, calls


def main():
    readobj_path, objdump_path, entry = sys.argv[1:4]
    sizes = frame_sizes(open(readobj_path).read())
    bodies, calls = call_graph(open(objdump_path).read())
    for name, lines in bodies.items():
        if name not in sizes:
            sizes[name] = prologue_size(lines)

    memo = {}

    def deepest(name, path):
        if name in path:
            sys.exit("recursion: " + " -> ".join(path + [name]))
        if name not in memo:
            best = (0, [])
            for callee in calls.get(name, ()):
                best = max(best, deepest(callee, path + [name]))
            memo[name] = (sizes.get(name, 0) + best[0], [name] + best[1])
        return memo[name]

    total, chain = deepest(entry, [])
    for name in chain:
        print(f"  {sizes.get(name, 0):5} B  {name}")
    print(total)


if __name__ == "__main__":
    main()
