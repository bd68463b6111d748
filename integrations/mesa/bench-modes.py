#!/usr/bin/env python3
"""The draw module's time on the built Mesa, `off` against other modes, round by round:
    integrations/mesa/bench-modes.py [--rounds N] [--modes off,front] [--bench PATH] [--runner PATH] [-- ARGS]
A mode may carry one environment variable (front:DRAWPIPE_MESA_MAX_VERTICES=1024).
Each round runs bench/gl_draw_bench once per mode, in a rotating order, each on the same
build through run.sh; a workload's ratio is the median over rounds of that round's
mode / off time (the runs of a round are adjacent, so they share the machine's mood), of the
runs' best times (the figure to quote: a shared machine only ever adds time) and, in
brackets, of their median times. Prints a Markdown table: per workload and mode, the best
and median ms and the two ratios. With gl_draw_bench's --xfb, what one draw captured must be
the same in every mode and round, and with --size, one frame's pixels (else it stops, naming
the workload)."""
import argparse
import os
import re
import statistics
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--rounds", type=int, default=5)
ap.add_argument("--modes", default="off,front")
ap.add_argument("--bench", default=os.path.join(root, "build/default/bench/gl_draw_bench"))
ap.add_argument("--runner", default=os.path.join(here, "run.sh"),
                help="runs MODE PROGRAM ARGS on the built Mesa (pack-device.sh's mesa-run elsewhere)")
ap.add_argument("args", nargs="*", help="passed to gl_draw_bench (after --)")
a = ap.parse_args()
modes = a.modes.split(",")
if modes[0] != "off":
    sys.exit("--modes: the first mode is the baseline and must be off")

times = {m: {} for m in modes}  # mode -> workload -> [(best, median) per round]
vertices = {m: {} for m in modes}  # mode -> workload -> vertex shader runs in one draw
order = []
captured = {}  # (workload, captured|frame) -> (first mode, what it printed): --xfb, --size
for r in range(a.rounds):
    for k in range(len(modes)):
        m = modes[(r + k) % len(modes)]
        mode, _, var = m.partition(":")  # "front:NAME=VALUE": the mode with a variable set
        env = dict(os.environ, **dict([var.split("=", 1)])) if var else None
        p = subprocess.run([a.runner, mode, a.bench] + a.args,
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            sys.exit(f"gl_draw_bench in {m} failed ({p.returncode}): {p.stderr.strip()}")
        for line in p.stdout.splitlines():
            if line.startswith("#"):
                c = re.match(r"# (\S+) (captured|frame) (.*)$", line)
                if c:
                    seen = captured.setdefault(c.group(1, 2), (m, c.group(3)))
                    if seen[1] != c.group(3):
                        sys.exit(f"{c.group(1)}: {m} {c.group(2)} {c.group(3)}, "
                                 f"{seen[0]} {seen[1]}")
                continue
            name, best, med, shaded = line.split()
            if name not in order:
                order.append(name)
            times[m].setdefault(name, []).append((float(best), float(med)))
            vertices[m][name] = int(shaded)
    print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)

print("| workload | " + " | ".join(f"{m} best / median ms" for m in modes) + " | " +
      " | ".join(f"{m} / off, best (median)" for m in modes[1:]) + " | vertices shaded (" +
      ", ".join(modes) + ") |")
print("|---" * (2 * len(modes) + 1) + "|")
for w in order:
    cells = []
    for m in modes:
        t = times[m][w]
        cells.append(f"{min(b for b, _ in t):.3f} / {statistics.median(x for _, x in t):.3f}")
    for m in modes[1:]:
        pairs = list(zip(times[m][w], times["off"][w]))
        best = statistics.median(x / o for (x, _), (o, _) in pairs)
        med = statistics.median(x / o for (_, x), (_, o) in pairs)
        cells.append(f"**{best:.3f}** ({med:.3f})")
    cells.append(" / ".join(str(vertices[m][w]) for m in modes))
    print(f"| {w} | " + " | ".join(cells) + " |")
