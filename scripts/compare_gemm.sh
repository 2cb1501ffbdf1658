#!/bin/sh
# Interleaved comparison of tensor.Gemm with numpy/OpenBLAS (and gonum) on
# the same shapes: for each round and shape, best of 5 Go runs then best of
# 10 numpy products, one right after the other, so both see the same load on
# a shared machine. Prints one line per round and shape, then the best over
# rounds. Run from the repository root: sh scripts/compare_gemm.sh [rounds]
set -eu
rounds=${1:-3}
bin=${TMPDIR:-/tmp}/pcgcn-tensor.test
go test -c -o "$bin" ./tensor/
shapes="NN_2277x2325x64 NN_2708x512x512 TN_2325x2277x64 NT_2277x64x2325 NN_2277x64x64 NN_2277x64x5"
res=${TMPDIR:-/tmp}/pcgcn-compare.txt
: > "$res"
r=1
while [ "$r" -le "$rounds" ]; do
	for s in $shapes; do
		load=$(cut -d' ' -f1 /proc/loadavg)
		g=$("$bin" -test.run '^$' -test.bench "^BenchmarkGemm/${s}\$" -test.count 5 -test.benchtime 10x |
			awk '/GFLOP/ { for (i = 1; i < NF; i++) if ($(i+1) == "GFLOP/s" && $i > b) b = $i } END { print b }')
		o=$("$bin" -test.run '^$' -test.bench "^BenchmarkGonumGemm/${s}\$" -test.count 2 -test.benchtime 3x |
			awk '/GFLOP/ { for (i = 1; i < NF; i++) if ($(i+1) == "GFLOP/s" && $i > b) b = $i } END { print b }')
		p=$(/usr/bin/python3 scripts/bench_numpy_gemm.py 10 "$s" | awk '$1 == "'"$s"'" { print $3 }')
		echo "$r $s $g $p $o $load" >> "$res"
		echo "round $r $s: tensor $g, numpy $p, gonum $o GFLOP/s (load $load)"
	done
	r=$((r + 1))
done
echo "best over rounds (GFLOP/s): shape tensor numpy gonum tensor/numpy tensor/gonum"
awk '{ if ($3 > g[$2]) g[$2] = $3; if ($4 > p[$2]) p[$2] = $4; if ($5 > o[$2]) o[$2] = $5 }
     END { for (s in g) printf "%s %.1f %.1f %.1f %.2f %.1f\n", s, g[s], p[s], o[s], g[s] / p[s], g[s] / o[s] }' "$res" | sort
