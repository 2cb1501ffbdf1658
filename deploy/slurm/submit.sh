#!/usr/bin/env bash
# Submits a plan of `pcgcn reproduce` as a Slurm job array of N workers and a render job that
# runs when every task has succeeded. Prints the two job ids.
#
#   deploy/slurm/submit.sh -n 8 -c 2 -r /shared/results -- --quick
#   deploy/slurm/submit.sh -n 32 -c 1 -r /shared/results -- --only main,ablation
#
#   -n N      array tasks (workers)                     (default 4)
#   -c C      cpus per task (each worker's --threads)   (default 1)
#   -r DIR    results directory on the shared filesystem (default results)
#   -d DIR    where the render job writes the reports   (default docs)
#   -b PATH   the pcgcn binary                          (default: pcgcn on PATH)
#   -s        static shares (--shard slurm) instead of claiming cells
#   -t        the plan is a `pcgcn tune` grid, not `pcgcn reproduce`
#   -p PART   partition; -A ACCOUNT; -T TIME (per task, sbatch --time)
# Everything after -- is the plan (PCGCN_ARGS): the same flags in every task and in the render job.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
n=4 c=1 results=results docs=docs bin=pcgcn mode=claim command=reproduce extra=()
while getopts "n:c:r:d:b:stp:A:T:" o; do
  case $o in
    n) n=$OPTARG ;; c) c=$OPTARG ;; r) results=$OPTARG ;; d) docs=$OPTARG ;; b) bin=$OPTARG ;;
    s) mode=shard ;; t) command=tune ;;
    p) extra+=(--partition "$OPTARG") ;; A) extra+=(--account "$OPTARG") ;; T) extra+=(--time "$OPTARG") ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ "${1:-}" = -- ] && shift
mkdir -p "$results/slurm-logs"
export PCGCN="$bin" PCGCN_ARGS="$*" PCGCN_RESULTS="$results" PCGCN_DOCS="$docs" PCGCN_MODE="$mode" PCGCN_COMMAND="$command"
array=$(sbatch --parsable --array="0-$((n - 1))" --cpus-per-task="$c" "${extra[@]}" \
  --output="$results/slurm-logs/worker-%A_%a.out" --export=ALL "$here/worker.sbatch")
render=$(sbatch --parsable --dependency="afterok:$array" "${extra[@]}" \
  --output="$results/slurm-logs/render-%j.out" --export=ALL "$here/render.sbatch")
echo "array $array ($n workers), render $render (after all succeed)"
echo "watch: $bin $command $* --results $results --plan"
