#!/usr/bin/env bash
# piglit on the built Mesa, one mode:  judge-piglit.sh MODE [LIST] > results.tsv
# Runs every test of LIST (default: piglit-tests.txt, names as `piglit print-cmd` prints
# them, from Debian's piglit `quick` profile) under one Xvfb, two at a time, through run.sh
# (so every run is checked to have loaded the build's driver), and prints
# "name<TAB>pass|fail|skip|warn|crash|timeout" per test. compare-piglit.sh sets two
# modes' results side by side.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
mode=${1:?usage: judge-piglit.sh off|front|shade|whole [LIST]}
list=${2:-$HERE/piglit-tests.txt}
jobs=${PIGLIT_JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "${xvfb:-}" ] && kill $xvfb 2>/dev/null' EXIT

# name ::: command, for the listed names (print-cmd prints commands relative to /usr/bin).
piglit print-cmd --format "{name} ::: {command}" quick 2>/dev/null >"$work/all"
awk -F' ::: ' 'NR==FNR {want[$0]=1; next} ($1 in want) {print}' "$list" "$work/all" |
    sort -u -t$'\t' >"$work/cmds"
missing=$(( $(grep -c . "$list") - $(wc -l <"$work/cmds") ))
[ "$missing" -gt 0 ] && echo "judge-piglit: $missing listed tests are not in this piglit" >&2

display=:$(( 90 + RANDOM % 400 ))
Xvfb "$display" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 1

run_one() { # "name ::: command" -> "name<TAB>result"
    local name=${1%% ::: *} cmd=${1#* ::: }
    local out fbo=-fbo
    [[ " $cmd " == *" -fbo "* ]] && fbo=
    out=$(cd /usr/bin && DISPLAY=$DISPLAY timeout 120 "$HERE/run.sh" "$MODE" $cmd $fbo 2>&1)
    local status=$?
    local result
    result=$(echo "$out" | grep -o '"result": *"[a-z]*"' | tail -1 | grep -o '[a-z]*"$' | tr -d '"')
    if [ $status -eq 3 ]; then result=wrong-driver
    elif [ $status -eq 124 ]; then result=timeout
    elif [ -z "$result" ]; then result=crash
    fi
    printf '%s\t%s\n' "$name" "$result"
}
export -f run_one
export HERE MODE=$mode DISPLAY=$display
tr '\n' '\0' <"$work/cmds" | xargs -0 -P "$jobs" -I{} bash -c 'run_one "$1"' _ {} | sort
