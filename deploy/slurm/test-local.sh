#!/usr/bin/env bash
# A real Slurm test on this machine: brings up a one-node Slurm cluster (Debian's slurm-wlm and
# munge: munged, slurmctld and slurmd on this host; installed if missing), then
#  1. runs the plan of `pcgcn reproduce --quick` serially, as the reference;
#  2. submits the same plan as a job array of 4 workers with a render job after it (submit.sh),
#     and checks that every cell's numbers, every report and every figure are identical to the
#     serial run's apart from timings;
#  3. submits it again into a fresh directory, cancels one task (scancel) in the middle of a cell,
#     resubmits the array and the render job, and checks that nothing is lost (the same
#     comparison), that no cell was trained by two workers at once (the claim intervals in the
#     workers' logs never overlap) and that every cell was saved exactly once.
# Prints the wall time of each run. Run as root (it starts daemons), from anywhere:
#   PCGCN_DATA=../shared/datasets deploy/slurm/test-local.sh
# Set KEEP=1 to keep the runs' directory, MEASURE=1 to time the plan with 1 and 2 workers too.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/deploy/slurm"
data=${PCGCN_DATA:-$root/../shared/datasets}
[ -d "$data" ] || { echo "test-local.sh: no dataset mirror at $data (set PCGCN_DATA)"; exit 1; }
data=$(cd "$data" && pwd)
work=$(mktemp -d /tmp/pcgcn-slurm-test.XXXXXX)
jobs_submitted=()
cleanup() {
  for j in "${jobs_submitted[@]}"; do scancel "$j" 2>/dev/null || true; done
  [ "${KEEP:-0}" = 1 ] && echo "runs kept in $work" || rm -rf "$work"
}
trap cleanup EXIT

start_slurm() {
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
  fi
  mkdir -p /etc/munge /var/log/munge /run/munge /var/lib/munge /var/lib/slurm/slurmd /var/lib/slurm/slurmctld /etc/slurm
  [ -f /etc/munge/munge.key ] || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
  chown -R munge:munge /etc/munge /var/log/munge /run/munge /var/lib/munge
  chmod 400 /etc/munge/munge.key
  pgrep -x munged >/dev/null || /usr/sbin/munged --force
  local host
  host=$(hostname)
  # proctrack/linuxproc and task/none: no cgroups inside a container
  cat > /etc/slurm/slurm.conf <<CONF
ClusterName=pcgcntest
SlurmctldHost=$host
ProctrackType=proctrack/linuxproc
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmdSpoolDir=/var/lib/slurm/slurmd
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmUser=root
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
KillWait=30
MinJobAge=3600
SlurmctldLogFile=/var/log/slurmctld.log
SlurmdLogFile=/var/log/slurmd.log
NodeName=$host CPUs=$(nproc) RealMemory=8000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  pgrep -x slurmctld >/dev/null || slurmctld
  pgrep -x slurmd >/dev/null || slurmd
  for _ in $(seq 30); do
    if sinfo -h -o %t 2>/dev/null | grep -qE 'idle|mix|alloc'; then echo "slurm up on $host ($(nproc) cpus)"; return 0; fi
    sleep 1
  done
  echo "slurm did not come up"; tail -20 /var/log/slurmctld.log /var/log/slurmd.log || true; exit 1
}

# job_state ID: the state of a job (all tasks of an array: one line each)
job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 || true; }

# wait_jobs ID...: until none of the jobs is pending or running
wait_jobs() {
  while true; do
    local busy=0 s
    for j in "$@"; do
      for s in $(job_state "$j"); do
        case $s in PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED) busy=1 ;; esac
      done
    done
    [ $busy = 0 ] && return 0
    sleep 1
  done
}

# submit DIR: the plan as an array of 4 workers and a render job; sets array and render ids
submit() {
  local out
  out=$("$here/submit.sh" -n 4 -c 1 -r "$1" -b "$work/pcgcn" -- --quick --data-dir "$data")
  echo "$out"
  array=$(echo "$out" | sed -n 's/^array \([0-9]*\).*/\1/p')
  render=$(echo "$out" | sed -n 's/.*render \([0-9]*\).*/\1/p')
  jobs_submitted+=("$array" "$render")
}

# check_render ID DIR: the render job completed and wrote the reports
check_render() {
  local s
  s=$(job_state "$1")
  [ "$s" = COMPLETED ] || { echo "render job $1 ended $s"; cat "$2"/slurm-logs/render-* || true; exit 1; }
  [ -f "$2/quick/report.md" ] && [ -f "$2/quick/results.md" ] || { echo "render job wrote no reports"; exit 1; }
}

start_slurm
cd "$root"
go build -o "$work/pcgcn" ./cmd/pcgcn

echo "== 1. the plan, serially (reference)"
t0=$(date +%s)
"$work/pcgcn" reproduce --quick --results "$work/serial" --data-dir "$data" --threads 1 2>"$work/serial.log" | tail -1
serial_s=$(( $(date +%s) - t0 ))

echo "== 2. the same plan as a job array of 4 workers, then the render job"
t0=$(date +%s)
submit "$work/array"
wait_jobs "$array" "$render"
array_s=$(( $(date +%s) - t0 ))
check_render "$render" "$work/array"
go run ./deploy/slurm/cmpruns "$work/serial/quick" "$work/array/quick"

if [ "${MEASURE:-0}" = 1 ]; then
  # the same plan with 1 and 2 workers, for the wall-time table of README ("Cluster runs")
  for n in 1 2; do
    t0=$(date +%s)
    out=$("$here/submit.sh" -n "$n" -c 1 -r "$work/array$n" -b "$work/pcgcn" -- --quick --data-dir "$data")
    array=$(echo "$out" | sed -n 's/^array \([0-9]*\).*/\1/p'); render=$(echo "$out" | sed -n 's/.*render \([0-9]*\).*/\1/p')
    jobs_submitted+=("$array" "$render")
    wait_jobs "$array" "$render"
    check_render "$render" "$work/array$n"
    echo "job array of $n workers: $(( $(date +%s) - t0 ))s"
  done
fi

echo "== 3. cancel a task in the middle of a cell, resubmit, render"
dir="$work/cancel"
mkdir -p "$dir/slurm-logs"
export PCGCN="$work/pcgcn" PCGCN_ARGS="--quick --data-dir $data" PCGCN_RESULTS="$dir" PCGCN_MODE=claim PCGCN_COMMAND=reproduce
first=$(sbatch --parsable --array=0-3 --cpus-per-task=1 --output="$dir/slurm-logs/worker-%A_%a.out" --export=ALL "$here/worker.sbatch")
jobs_submitted+=("$first")
cancelled=""
for _ in $(seq 600); do
  # a cell under way with a finished split: its partial file exists and its claim names a task
  for part in $(find "$dir/quick" -name '*.partial.json' 2>/dev/null); do
    cell=${part#"$dir/quick/"}
    cell=${cell%.partial.json}
    log=$(grep -l " claimed $cell\$" "$dir"/slurm-logs/worker-*.out 2>/dev/null | head -1 || true)
    [ -n "$log" ] || continue
    grep -q " saved $cell\$" "$log" && continue
    task=$(basename "$log" .out)
    task=${task#worker-}
    scancel --signal=TERM --full "$task" 2>/dev/null || scancel "$task"
    cancelled="$task $cell"
    break 2
  done
  sleep 0.2
done
[ -n "$cancelled" ] || { echo "never caught a cell in the middle"; exit 1; }
echo "cancelled task ${cancelled% *} while it trained ${cancelled#* }"
wait_jobs "$first"
grep -h "released ${cancelled#* } (interrupted)" "$dir"/slurm-logs/worker-*.out ||
  { echo "the cancelled worker did not release its claim"; cat "$dir"/slurm-logs/worker-*.out | tail -20; exit 1; }
"$work/pcgcn" reproduce --quick --results "$dir" --data-dir "$data" --plan 2>/dev/null | grep -E 'study|total'
submit "$dir"
wait_jobs "$array" "$render"
check_render "$render" "$dir"
go run ./deploy/slurm/cmpruns "$work/serial/quick" "$dir/quick"

# no two workers held a cell at once: per cell, every claim ends (saved or released) before
# the next begins; and every cell was saved exactly once
cat "$dir"/slurm-logs/worker-*.out | grep -E '^[0-9T:.Z-]+ \S+ (claimed|saved|released) ' | sort |
  awk '{cell=$4; ev=$3}
       ev=="claimed" { if (held[cell]) { print "OVERLAP on " cell ": " $2 " claimed it while " held[cell] " held it"; bad=1 }
                       held[cell]=$2 }
       ev=="saved" || ev=="released" { held[cell]=""; if (ev=="saved") saved[cell]++ }
       END { for (c in saved) if (saved[c] != 1) { print c " saved " saved[c] " times"; bad=1 }
             n=0; for (c in saved) n++; print n " cells saved by the workers, claims never overlapping"; exit bad }'

echo "== wall time of the quick plan: serial ${serial_s}s, job array of 4 workers ${array_s}s (on $(nproc) cpus)"
echo "slurm test passed"
