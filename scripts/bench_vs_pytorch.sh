#!/usr/bin/env bash
# Side-by-side speed of pcgcn and the PyTorch CPU reference (../shared/bench): for every offline
# dataset and for PCGCN, GCN and MLP, times training epochs (forward + backward + Adam step, no
# evaluation, split 0) with `pcgcn bench` and `bench_epoch.py` at the same thread count, one after
# the other, and writes results/speed.json (read by `pcgcn reproduce` into docs/results.md).
#
# Both sides run the same model: PCGCN with the straight-through assignment (bmode=ste, the
# reference's default, tau 0.5), row-normalised features, sparse X, the paper's hyperparameters.
#
# Needs Debian's python3-torch: apt-get install -y python3-torch python3-scipy python3-numpy
# Both sides warm up over the same number of untimed epochs: at least WARMUP, and as many as
# `pcgcn bench` runs in WARMUP_TIME (its --warmup-time), which the reference is then given. A
# graph whose epoch takes a tenth of a millisecond is otherwise timed while the cores come up to
# speed (BENCHMARKS.md, "Warming up the tiniest graphs").
# Each cell is measured REPEAT times (ours, reference, ours, reference, ...) and its row records
# the median of each side's medians (every reading is kept in ours_runs_ms and torch_runs_ms):
# this virtualised machine's speed moves by a third within minutes, and one pair can catch it.
# Usage: scripts/bench_vs_pytorch.sh [THREADS=2] [EPOCHS=50] [WARMUP=5] [WARMUP_TIME=200ms] [REPEAT=3] [DATASETS="cora ..."] [MODELS="pcgcn gcn mlp"]
# A run on some datasets or models replaces only their rows of results/speed.json (same dataset,
# model and threads) and keeps the others: a subset run never drops saved measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-2}
EPOCHS=${EPOCHS:-50}
WARMUP=${WARMUP:-5}
WARMUP_TIME=${WARMUP_TIME:-200ms}
REPEAT=${REPEAT:-3}
DATASETS=${DATASETS:-"cora citeseer chameleon squirrel actor cornell texas wisconsin"}
MODELS=${MODELS:-"pcgcn gcn mlp"}
export PCGCN_DATA=${PCGCN_DATA:-$(cd .. && pwd)/shared/datasets}
BENCH=${BENCH:-$(cd .. && pwd)/shared/bench}

mkdir -p bin results
go build -o bin/pcgcn ./cmd/pcgcn
tmp=$(mktemp results/.speed.XXXXXX)
trap 'rm -f "$tmp"' EXIT
start=$(date +%s)
for model in $MODELS; do
  for ds in $DATASETS; do
    extra=()
    [ "$model" = pcgcn ] && extra=(--set bmode=ste --set tau=0.5)
    for _ in $(seq "$REPEAT"); do
      ours=$(bin/pcgcn bench --dataset "$ds" --model "$model" --threads "$THREADS" --epochs "$EPOCHS" --warmup "$WARMUP" \
        --warmup-time "$WARMUP_TIME" "${extra[@]}" --json)
      warmed=$(/usr/bin/python3 -c 'import json,sys; print(json.loads(sys.argv[1])["warmup_epochs"])' "$ours")
      torch=$(cd "$BENCH" && /usr/bin/python3 -W ignore bench_epoch.py --dataset "$ds" --model "$model" --threads "$THREADS" --epochs "$EPOCHS" --warmup "$warmed" --json)
      echo "$ours" >&2
      echo "$torch" >&2
      printf '%s\n%s\n' "$ours" "$torch" >> "$tmp"
    done
  done
done
/usr/bin/python3 - "$tmp" results/speed.json <<'PY' > results/speed.json.new
import json, os, sys
from statistics import median
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
key = lambda r: (r["dataset"], r["model"], r["threads"])
pairs = {}  # the readings of each cell, in the order measured
for ours, torch in zip(lines[0::2], lines[1::2]):
    pairs.setdefault((ours["dataset"], torch["model"], ours["threads"]), []).append((ours, torch))
rows = []
for (ds, model, threads), ps in pairs.items():
    o, t = median(p[0]["median_ms"] for p in ps), median(p[1]["median_ms"] for p in ps)
    rows.append(dict(dataset=ds, model=model, threads=threads, epochs=ps[0][0]["epochs"], ours_median_ms=o, torch_median_ms=t,
                     ours_peak_rss_mib=max(p[0]["peak_rss_mib"] for p in ps),
                     torch_peak_rss_mib=max(p[1]["peak_rss_mib"] for p in ps),
                     speedup=t / o, ours_runs_ms=[p[0]["median_ms"] for p in ps],
                     torch_runs_ms=[p[1]["median_ms"] for p in ps],
                     warmup_epochs=[p[0]["warmup_epochs"] for p in ps], machine=ps[0][0].get("machine", "")))
new = {key(r): r for r in rows}
if os.path.exists(sys.argv[2]):
    old = json.load(open(sys.argv[2]))
    seen = {key(r) for r in old}
    rows = [new.get(key(r), r) for r in old] + [r for r in rows if key(r) not in seen]
print(json.dumps(rows, indent=1))
PY
mv results/speed.json.new results/speed.json
echo "wrote results/speed.json in $(( $(date +%s) - start ))s" >&2
