# shellcheck shell=bash
# Timing helpers of the benchmarks.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }   # elapsed T0 T1: seconds
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
per_s() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }        # per_s N SECONDS
