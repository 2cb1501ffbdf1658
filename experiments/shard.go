package experiments

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Static shares of a plan for workers that do not claim cells one by one
// (--shard, a Slurm job array), and the wall-time estimate over N workers.

// Shard is one of Count static shares of a plan (Index in [0, Count)).
type Shard struct{ Index, Count int }

// ParseShard reads "I/N" (0 ≤ I < N), or "slurm": the array task's
// SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT read through getenv (task
// ids must run 0..N-1, as with sbatch --array=0-(N-1)).
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	if s == "slurm" {
		id, count := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT")
		if id == "" || count == "" {
			return Shard{}, fmt.Errorf("--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not inside an sbatch --array task)")
		}
		s = id + "/" + count
	}
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(i)
	b, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || b < 1 || a < 0 || a >= b {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 0 ≤ I < N, or slurm", s)
	}
	return Shard{Index: a, Count: b}, nil
}

// Shards assigns each cell to one of n shares, balanced by estimated cost:
// longest first, each to the share with the least cost so far (ties to the
// lower index), so that every task computes the same assignment. It returns
// the share of each cell.
func Shards(costs []float64, n int) []int {
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] > costs[order[b]] })
	load := make([]float64, n)
	share := make([]int, len(costs))
	for _, i := range order {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		share[i] = best
		load[best] += costs[i]
	}
	return share
}

// Makespan is the estimated wall time of costs shared out by Shards over n
// workers: the largest share.
func Makespan(costs []float64, n int) float64 {
	load := make([]float64, max(n, 1))
	for i, s := range Shards(costs, max(n, 1)) {
		load[s] += costs[i]
	}
	return max(0, sliceMax(load))
}

func sliceMax(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func shardName(s Shard) string {
	if s.Count == 0 {
		return "none"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// staticCosts estimates each cell's cost for static sharding from what does
// not change while the plan runs: the work of an epoch of the cell on its
// graph, the number of splits, and the model's rate in saved cells outside
// the plan (none in a fresh directory: then work alone), so that array
// tasks started at different times compute the same shares.
func (rn *Runner) staticCosts(cells []Cell) []float64 {
	inPlan := map[string]bool{}
	for _, c := range cells {
		inPlan[rn.Path(c)] = true
	}
	est := rn.estimator()
	scanSaved(rn.Dir, func(path string, r *Result) {
		if !inPlan[path] {
			est.Add(r)
		}
	})
	costs := make([]float64, len(cells))
	for i, c := range cells {
		costs[i] = float64(len(c.Splits)) * est.ModelCost(c)
	}
	return costs
}
