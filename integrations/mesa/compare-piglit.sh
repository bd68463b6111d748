#!/usr/bin/env bash
# Two modes' piglit results side by side:  compare-piglit.sh off.tsv front.tsv
# Prints each mode's pass/fail/skip counts and every test whose result differs; exits 1 when
# any does.
set -euo pipefail
a=$1 b=$2
for f in "$a" "$b"; do
    echo "$(basename "$f" .tsv): $(wc -l <"$f") tests: $(cut -f2 "$f" | sort | uniq -c | awk '{printf "%s %s, ", $2, $1}' | sed 's/, $//')"
done
differ=$(join -t$'\t' <(sort "$a") <(sort "$b") | awk -F'\t' '$2 != $3')
if [ -n "$differ" ]; then
    echo "differ ($(echo "$differ" | wc -l)):"
    echo "$differ"
    exit 1
fi
echo "no test differs"
