#!/usr/bin/env bash
# Training speed of every model on every offline dataset, measured in one run: `pcgcn bench`
# (forward + backward + Adam step, no evaluation, split 0, the dataset's preset) for each model
# and dataset in turn, at the same thread count. Writes results/speed_models.json, which
# `pcgcn reproduce --only main` reads for the ms / epoch column of the main table in
# docs/results.md. The per-cell times of the experiment runs are not used there because those
# runs share the machine with other work and may use other thread counts.
#
# Run it on a quiet machine (pause other jobs: kill -STOP PID ... kill -CONT PID).
# Usage: scripts/bench_models.sh [THREADS=2] [EPOCHS=20] [DATASETS="cora ..."] [MODELS="pcgcn gcn ..."]
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
EPOCHS=${EPOCHS:-20}
DATASETS=${DATASETS:-"chameleon squirrel actor texas wisconsin cornell cora citeseer"}
export PCGCN_DATA=${PCGCN_DATA:-$(cd .. && pwd)/shared/datasets}

mkdir -p bin results
go build -o bin/pcgcn ./cmd/pcgcn
MODELS=${MODELS:-$(bin/pcgcn models --json | /usr/bin/env python3 -c 'import json,sys; print(" ".join(m["name"] for m in json.load(sys.stdin)))' 2>/dev/null || true)}
if [ -z "$MODELS" ]; then
  MODELS="pcgcn mlp gcn gat sage sgc appnp mixhop gcnii h2gcn-1 h2gcn-2 fagcn gprgnn linkx glognn ggcn"
fi
tmp=$(mktemp results/.speed_models.XXXXXX)
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
echo "[" > "$tmp"
first=1
for model in $MODELS; do
  for ds in $DATASETS; do
    line=$(bin/pcgcn bench --dataset "$ds" --model "$model" --threads "$THREADS" --epochs "$EPOCHS" --warmup 3 --json)
    echo "$line" >&2
    [ $first = 1 ] || echo "," >> "$tmp"
    first=0
    printf '%s\n' "$line" >> "$tmp"
  done
done
echo "]" >> "$tmp"
mv "$tmp" results/speed_models.json
trap - EXIT
echo "wrote results/speed_models.json in $(( $(date +%s) - start ))s" >&2
