#!/bin/sh
# Reproduces the figures of BENCHMARKS.md: the machine, the tensor kernel
# benchmarks (-count 5, summarised by benchstat and by best-of-5), gonum's
# blas32.Gemm and numpy/OpenBLAS at the same shapes. Run from the repository
# root; writes its outputs to $BENCH_OUT (default /tmp/pcgcn-bench). Needs benchstat
# (go install golang.org/x/perf/cmd/benchstat@latest) and python3-numpy.
set -eu
out=${BENCH_OUT:-/tmp/pcgcn-bench}
mkdir -p "$out"
{
	echo "nproc: $(nproc)"
	grep -m1 'model name' /proc/cpuinfo
	grep -m1 flags /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|fma|avx512f)$' | tr '\n' ' '
	echo
	go version
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
go test -run '^$' -bench . -count 5 ./tensor/ > "$out/go.txt"
echo "load after go: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
/usr/bin/python3 scripts/bench_numpy_gemm.py 20 > "$out/numpy.txt"
echo "load after numpy: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/machine.txt"
benchstat "$out/go.txt" > "$out/benchstat.txt" || true
# best of 5 for every custom metric (GFLOP/s, GMAC/s, ...): the largest value
awk '/^Benchmark/ { for (i = 5; i < NF; i += 2) if ($(i+1) ~ /\/s/ && $i > best[$1 " " $(i+1)]) best[$1 " " $(i+1)] = $i }
     END { for (k in best) print k, best[k] }' "$out/go.txt" | sort > "$out/best.txt"
cat "$out/machine.txt" "$out/best.txt" "$out/numpy.txt"
