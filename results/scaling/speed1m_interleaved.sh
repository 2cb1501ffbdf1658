#!/bin/bash
# Interleaved same-run comparison at 1M nodes (docs/scaling.md, "Speed"): for each model,
# ours, the PyTorch reference, ours again, on the complexity study's 1M-node cSBM:
#   pcgcn generate csbm --out /tmp/graphs/c1m --nodes 1000000 --avg-degree 20 --classes 5 \
#       --homophily 0.2 --features 64 --signal 1 --seed 1 --num-splits 1 --split-ratio 0.5,0.25,0.25
# Run from the project root with pcgcn on PATH (PCGCN=path overrides) and python3-torch installed.
set -e
G=${1:-/tmp/graphs/c1m}
PCGCN=${PCGCN:-pcgcn}
for m in pcgcn gcn; do
  echo "== $m $(date +%T)"
  "$PCGCN" bench --data "$G" --model $m --warmup 1 --epochs 3 --threads 2 --json 2>/dev/null
  /usr/bin/python3 -W ignore ../shared/bench/bench_graph.py "$G" --model $m --threads 2 --epochs 3
  "$PCGCN" bench --data "$G" --model $m --warmup 1 --epochs 3 --threads 2 --json 2>/dev/null
done
echo "== done $(date +%T)"
