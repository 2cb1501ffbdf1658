#!/usr/bin/env bash
# Epoch latency of two pcgcn binaries and the PyTorch reference, interleaved (issue 37): for each
# model and dataset, old, new, reference, new, old — `pcgcn bench` and ../shared/bench/bench_epoch.py
# at the same thread count and epochs — so that every side sees the same load; prints one Markdown
# row per cell with both readings of each binary and the ratios. The reference times only pcgcn,
# gcn and mlp; for other models the reference column is left empty (REF=0 skips it everywhere).
# PCGCN runs as scripts/bench_vs_pytorch.sh runs it (bmode=ste, tau 0.5).
#
# Usage: OLD=bin/pcgcn-old NEW=bin/pcgcn scripts/bench_latency.sh [MODELS="pcgcn"] [DATASETS="..."]
#        THREADS=2 EPOCHS=40 REF=1
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
EPOCHS=${EPOCHS:-40}
REF=${REF:-1}
MODELS=${MODELS:-pcgcn}
DATASETS=${DATASETS:-"chameleon squirrel actor cornell texas wisconsin cora citeseer"}
export PCGCN_DATA=${PCGCN_DATA:-$(cd .. && pwd)/shared/datasets}
BENCH=${BENCH:-$(cd .. && pwd)/shared/bench}
: "${OLD:?OLD=path of the old binary}" "${NEW:?NEW=path of the new binary}"

median() { /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["median_ms"])'; }
ours() { # binary model dataset
  local extra=()
  [ "$2" = pcgcn ] && extra=(--set bmode=ste --set tau=0.5)
  "$1" bench --dataset "$3" --model "$2" --threads "$THREADS" --epochs "$EPOCHS" --warmup 5 --quiet --json "${extra[@]}" | median
}
ref() { # model dataset
  case "$1" in pcgcn | gcn | mlp) ;; *) echo 0; return ;; esac
  [ "$REF" = 1 ] || { echo 0; return; }
  (cd "$BENCH" && /usr/bin/python3 -W ignore bench_epoch.py --dataset "$2" --model "$1" --threads "$THREADS" \
    --epochs "$EPOCHS" --warmup 5 --json) | median
}
echo "| model | dataset | old, ms (two runs) | new, ms (two runs) | new / old speed-up | reference, ms | reference / old | reference / new |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for model in $MODELS; do
  for ds in $DATASETS; do
    o1=$(ours "$OLD" "$model" "$ds"); n1=$(ours "$NEW" "$model" "$ds")
    r=$(ref "$model" "$ds")
    n2=$(ours "$NEW" "$model" "$ds"); o2=$(ours "$OLD" "$model" "$ds")
    /usr/bin/python3 - "$model" "$ds" "$o1" "$o2" "$n1" "$n2" "$r" <<'PY'
import sys
m, ds = sys.argv[1:3]
o1, o2, n1, n2, r = map(float, sys.argv[3:])
o, n = (o1 + o2) / 2, (n1 + n2) / 2
rng = lambda a, b: f"{r / max(a, b):.1f}–{r / min(a, b):.1f}×" if r else ""
print(f"| {m} | {ds} | {o1:.2f} / {o2:.2f} | {n1:.2f} / {n2:.2f} | {o / n:.2f}× | {r:.2f} | {rng(o1, o2)} | {rng(n1, n2)} |"
      .replace("| 0.00 |", "| |"))
PY
  done
done
