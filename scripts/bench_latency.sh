#!/usr/bin/env bash
# Epoch latency of two pcgcn binaries and the PyTorch reference, interleaved (issue 37): for each
# model and dataset, new, old, reference, old, new — `pcgcn bench` and ../shared/bench/bench_epoch.py
# at the same thread count and epochs — so that every side sees the same load; prints one Markdown
# row per cell with both readings of each binary and the ratios. Every run warms up over the same
# number of untimed epochs: as many as the new binary's first run takes for WARMUP_TIME (its
# --warmup-time; at least 5 epochs), so that a 0.1 ms epoch is not timed while the cores come up
# to speed. The reference times only pcgcn,
# gcn and mlp; for other models the reference column is left empty (REF=0 skips it everywhere).
# PCGCN runs as scripts/bench_vs_pytorch.sh runs it (bmode=ste, tau 0.5).
#
# Usage: OLD=bin/pcgcn-old NEW=bin/pcgcn scripts/bench_latency.sh [MODELS="pcgcn"] [DATASETS="..."]
#        THREADS=2 EPOCHS=40 REF=1 WARMUP_TIME=200ms
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
EPOCHS=${EPOCHS:-40}
REF=${REF:-1}
WARMUP_TIME=${WARMUP_TIME:-200ms}
MODELS=${MODELS:-pcgcn}
DATASETS=${DATASETS:-"chameleon squirrel actor cornell texas wisconsin cora citeseer"}
export PCGCN_DATA=${PCGCN_DATA:-$(cd .. && pwd)/shared/datasets}
BENCH=${BENCH:-$(cd .. && pwd)/shared/bench}
: "${OLD:?OLD=path of the old binary}" "${NEW:?NEW=path of the new binary}"

field() { /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
timed() { # binary: whether it has --warmup-time (older binaries warm up over --warmup epochs only)
  local help
  help=$("$1" bench --help 2>&1)
  [[ $help == *--warmup-time* ]]
}
ours() { # binary model dataset warm-up: an epoch count, or "time" for WARMUP_TIME; prints "median warmed"
  local extra=() warm=(--warmup "$4")
  [ "$2" = pcgcn ] && extra=(--set bmode=ste --set tau=0.5)
  if [ "$4" = time ]; then warm=(--warmup 5 --warmup-time "$WARMUP_TIME"); elif timed "$1"; then warm+=(--warmup-time 0); fi
  "$1" bench --dataset "$3" --model "$2" --threads "$THREADS" --epochs "$EPOCHS" "${warm[@]}" --quiet --json "${extra[@]}" |
    /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["median_ms"], d.get("warmup_epochs", 0))'
}
ref() { # model dataset warm-up epochs
  case "$1" in pcgcn | gcn | mlp) ;; *) echo 0; return ;; esac
  [ "$REF" = 1 ] || { echo 0; return; }
  (cd "$BENCH" && /usr/bin/python3 -W ignore bench_epoch.py --dataset "$2" --model "$1" --threads "$THREADS" \
    --epochs "$EPOCHS" --warmup "$3" --json) | field median_ms
}
timed "$NEW" || { echo "NEW=$NEW has no --warmup-time: give the newer binary as NEW" >&2; exit 2; }
echo "| model | dataset | old, ms (two runs) | new, ms (two runs) | new / old speed-up | reference, ms | reference / old | reference / new |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for model in $MODELS; do
  for ds in $DATASETS; do
    read -r n1 w < <(ours "$NEW" "$model" "$ds" time)
    read -r o1 _ < <(ours "$OLD" "$model" "$ds" "$w")
    r=$(ref "$model" "$ds" "$w")
    read -r o2 _ < <(ours "$OLD" "$model" "$ds" "$w")
    read -r n2 _ < <(ours "$NEW" "$model" "$ds" "$w")
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
