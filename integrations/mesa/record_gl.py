#!/usr/bin/env python3
"""Stands in for mesa_trace or mesa_render inside tests/mesa's comparisons, on the built Mesa:
    record_gl.py [ARGS...]   (JUDGE_PROGRAM: the program, DRAWPIPE_JUDGE_MODE: off|front|shade|whole,
                              JUDGE_RECORD: a folder)
runs JUDGE_PROGRAM through run.sh in the mode, passes its output on to the comparison untouched, and
records, per draw description, what Mesa gave (its text, and the transform-feedback bytes it
dumped) under a name made of the description's own contents: the same description records to
the same file in every mode, so `diff -r` of two modes' folders is the judge."""
import hashlib
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
mode = os.environ["DRAWPIPE_JUDGE_MODE"]
record = os.environ["JUDGE_RECORD"]
prog, args = os.environ["JUDGE_PROGRAM"], sys.argv[1:]
p = subprocess.run([os.path.join(here, "run.sh"), mode, prog] + args, capture_output=True,
                   text=True)
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)

flags = " ".join(a for a in args if a.startswith("--") or a.isdigit())
files = {}  # description path -> dump path, for every FILE[,BYTES,DUMP,...] argument
for a in args:
    parts = a.split(",")
    if os.path.isfile(parts[0]):
        files[parts[0]] = parts[2] if len(parts) > 2 else None

# Batch output: `== FILE status S` then the file's text.
texts, cur = {}, None
for line in p.stdout.splitlines(keepends=True):
    if line.startswith("== "):
        cur = line.split()[1]
        texts[cur] = [line.replace(cur, os.path.basename(cur), 1)]
    elif cur is not None:
        texts[cur].append(line)
os.makedirs(record, exist_ok=True)
for path, dump in files.items():
    with open(path, "rb") as f:
        key = hashlib.sha1((flags + "\n").encode() + f.read()).hexdigest()[:20]
    body = "".join(texts.get(path, [f"(no output; exit {p.returncode})\n"]))
    with open(os.path.join(record, key + ".txt"), "w") as f:
        f.write(body)
    if dump and os.path.isfile(dump):
        with open(dump, "rb") as src, open(os.path.join(record, key + ".xfb"), "wb") as dst:
            dst.write(src.read())
sys.exit(p.returncode)
