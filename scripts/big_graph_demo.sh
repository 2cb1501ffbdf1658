#!/bin/bash
# The graph bounded by disk, end to end (issue 39, docs/scaling.md "A graph
# bounded by disk"): a contextual SBM of 50M nodes and 500M undirected edges
# (average degree 20, 64 features, 5 classes), written with its adjacency in
# CSR form, trained with PCGCN in mini-batches for one epoch with its
# layer-wise evaluation (layers kept in memory-mapped files), measured with
# /usr/bin/time -v, then deleted. Not run by the tests.
#
# Needs about 60 GB free (56 GB at the peak) on the disks of $WORK (default
# /tmp/bigdemo) and $TMPDIR: the graph 25.8 GB while written (features 12.8,
# CSR indices and values 8, row pointer 0.4, edges 4, deleted once the CSR
# is written, labels 0.4, splits 0.15), the evaluation's two 50M×64 float32
# layers 25.6 GB (under $WORK/eval), and Â in unlinked scratch files of
# $TMPDIR 8.4 GB. Estimated from the 1M and 10M runs (docs/scaling.md):
# generating 15-30 min, loading and checking a few minutes, the epoch (245
# batches of 4096 seeds) 15-25 min, the evaluation 10-15 min; peak RSS 6-9
# GiB in training, about 4.5 GiB in generating.
#
# Usage: scripts/big_graph_demo.sh [PCGCN-binary]   (run alone on the machine)
set -euo pipefail
PCGCN=${1:-pcgcn}
WORK=${WORK:-/tmp/bigdemo}
NODES=${NODES:-50000000}
G="$WORK/csbm$((NODES / 1000000))m"
mkdir -p "$WORK/eval"
trap 'rm -rf "$G" "$WORK/eval"' EXIT # delete the graph whatever happens
df -h "$WORK"

# 1. generate: edges, labels, features, one split (2% train, 2% validation),
#    and the CSR files (two more passes over the edges, 8 bytes/node of memory)
/usr/bin/time -v "$PCGCN" generate csbm --out "$G" --nodes "$NODES" --avg-degree 20 \
    --features 64 --classes 5 --homophily 0.2 --seed 1 \
    --num-splits 1 --split-ratio 0.02,0.02,0.96 --csr --json \
    > "$WORK/generate.json" 2> "$WORK/generate.time"
rm "$G/edges.npy" # the reader maps the CSR; the edge list is not read again
du -sb "$G" | tee "$WORK/disk.txt"

# 2. train: one epoch of mini-batches, its evaluation in blocks over layers
#    kept in files under $WORK/eval
/usr/bin/time -v "$PCGCN" train --data "$G" --model pcgcn --batch 4096 --fanouts 10,5 \
    --epochs 1 --patience 0 --threads 2 --eval-dir "$WORK/eval" --json \
    > "$WORK/train.json" 2> "$WORK/train.time"
du -sb "$G" "$WORK/eval" >> "$WORK/disk.txt"

# 3. measure: peak RSS, wall time, the epoch's time and the scores
grep -E "Elapsed|Maximum resident" "$WORK/generate.time" "$WORK/train.time"
grep -E '"(test_mean|val_mean|ms_per_epoch|seconds)"' "$WORK/train.json"
# 4. delete: the trap removes the graph and the evaluation's directory;
#    the measurements stay in $WORK
