#!/usr/bin/env python3
"""glmark2 (Debian's glmark2-x11) on the built Mesa under Xvfb, in `off` and other modes:
    integrations/mesa/judge-glmark2.py [--rounds N] [--modes off,front] [--size WxH]
First glmark2 --validate in each mode (its own per-scene check of rendered pixels against
reference values): every default scene must give the same verdict in every mode. Then N
rounds of the default benchmark, the modes interleaved in a rotating order; prints a Markdown
table of every scene's score per mode (median over rounds) beside `off`'s own spread
(max - min over its rounds, as a share of its median), and exits 1 when a scene fails to run
or a mode's verdicts differ from off's."""
import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--rounds", type=int, default=2)
ap.add_argument("--modes", default="off,front")
ap.add_argument("--size", default="800x600")
a = ap.parse_args()
modes = a.modes.split(",")

display = f":{random.randint(500, 900)}"
xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1)
env = dict(os.environ, DISPLAY=display)


def glmark2(mode, *args):
    p = subprocess.run([os.path.join(here, "run.sh"), mode, "glmark2", "-s", a.size] + list(args),
                       capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"glmark2 in {mode} failed ({p.returncode}): {p.stderr.strip()[-500:]}")
    return p.stdout


# "[build] use-vbo=false: FPS: 1234 FrameTime: ..." / "[build] use-vbo=false: Validation: Success"
LINE = re.compile(r"^\[(\S+)\] (.*?): (FPS: (\d+)|Validation: (\w+)|Unsupported)", re.M)
ok = True
try:
    verdicts = {}
    for m in modes:
        verdicts[m] = {f"[{s}] {o}": (v or "unsupported") for s, o, _, _, v in LINE.findall(glmark2(m, "--validate"))}
        print(f"{m}: --validate: " + ", ".join(
            f"{k} {list(verdicts[m].values()).count(k)}" for k in sorted(set(verdicts[m].values()))),
            file=sys.stderr)
    for m in modes[1:]:
        diff = {k for k in verdicts["off"] if verdicts[m].get(k) != verdicts["off"][k]}
        if diff or set(verdicts[m]) != set(verdicts["off"]):
            ok = False
            print(f"{m}: validation differs from off on {sorted(diff)}", file=sys.stderr)

    scores = {m: {} for m in modes}
    order = []
    for r in range(a.rounds):
        for k in range(len(modes)):
            m = modes[(r + k) % len(modes)]
            for s, o, _, fps, _ in LINE.findall(glmark2(m)):
                name = f"[{s}] {o}"
                if name not in order:
                    order.append(name)
                scores[m].setdefault(name, []).append(int(fps) if fps else None)
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
finally:
    xvfb.terminate()

print("| scene | " + " | ".join(f"{m} FPS" for m in modes) + " | off spread | " +
      " | ".join(f"{m} / off" for m in modes[1:]) + " |")
print("|---" * (2 * len(modes) + 1) + "|")
for name in order:
    cells, med = [], {}
    for m in modes:
        got = scores[m].get(name, [])
        if not got or None in got or len(got) != a.rounds:
            ok = False
            cells.append("did not run")
            continue
        med[m] = statistics.median(got)
        cells.append(f"{med[m]:.0f}")
    off = scores["off"].get(name, [])
    spread = (max(off) - min(off)) / med["off"] if "off" in med and med["off"] else 0
    cells.append(f"{100 * spread:.1f} %")
    for m in modes[1:]:
        cells.append(f"{med[m] / med['off']:.3f}" if m in med and med.get("off") else "-")
    print(f"| {name} | " + " | ".join(cells) + " |")
sys.exit(0 if ok else 1)
