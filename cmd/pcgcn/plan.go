package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/studies"
	"github.com/pcgcn/pcgcn/tensor"
)

// The output of reproduce --plan: a table, or JSON for scripts.

// planOutput is the --plan --json output: the entries of printPlan's table
// and their total.
type planOutput struct {
	Numerics string                  `json:"numerics"`
	Studies  []experiments.PlanEntry `json:"studies"`
	Total    experiments.PlanEntry   `json:"total"`
	// Workers and WorkersSeconds (with --workers N): the estimated wall time
	// of what is left with N workers, cells shared out longest first.
	Workers        int     `json:"workers,omitempty"`
	WorkersSeconds float64 `json:"workers_estimated_seconds,omitempty"`
}

func planJSON(plan []experiments.PlanEntry, workers int) planOutput {
	out := planOutput{Numerics: tensor.Numerics(), Studies: plan, Total: experiments.PlanEntry{Study: "total"}}
	if out.Studies == nil {
		out.Studies = []experiments.PlanEntry{}
	}
	for _, e := range plan {
		out.Total.Cells += e.Cells
		out.Total.Done += e.Done
		out.Total.Stale += e.Stale
		out.Total.Unchecked += e.Unchecked
		out.Total.AddUnopened(e.Unopened...)
		out.Total.Claimed += e.Claimed
		out.Total.Reused += e.Reused
		out.Total.Extended += e.Extended
		out.Total.Resumed += e.Resumed
		out.Total.Splits += e.Splits
		out.Total.EstSeconds += e.EstSeconds
		out.Total.ByDataset = addSeconds(out.Total.ByDataset, e.ByDataset)
		out.Total.ByModel = addSeconds(out.Total.ByModel, e.ByModel)
		out.Total.Costs = append(out.Total.Costs, e.Costs...)
	}
	if workers > 0 {
		out.Workers, out.WorkersSeconds = workers, experiments.Makespan(out.Total.Costs, workers)
	}
	return out
}

// bySeconds lists the time left by key (dataset or model), longest first
// (ties by name).
func bySeconds(m map[string]float64) string {
	names := slices.Collect(maps.Keys(m))
	slices.SortFunc(names, func(a, b string) int {
		if c := cmp.Compare(m[b], m[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + studies.FormatDuration(seconds(m[n]))
	}
	return strings.Join(parts, ", ")
}

// addSeconds adds the seconds of from into to by key, making to if it is
// nil and from is not empty.
func addSeconds(to, from map[string]float64) map[string]float64 {
	for k, sec := range from {
		if to == nil {
			to = map[string]float64{}
		}
		to[k] += sec
	}
	return to
}

// seconds converts a float number of seconds to a Duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// printPlan writes the --plan table: per study, cells saved and splits left
// with the estimated time, and the totals.
func printPlan(w io.Writer, plan []experiments.PlanEntry, workers int) {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	out := planJSON(plan, workers)
	unchecked := out.Total.Unchecked > 0
	head := "study\tcells\tsaved\treused\tstale\tclaimed\textended\tresumed\t"
	if unchecked {
		head += "unchecked\t"
	}
	fmt.Fprintln(tw, head+"splits left\testimated time\t")
	for _, e := range slices.Concat(plan, []experiments.PlanEntry{out.Total}) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t", e.Study, e.Cells, e.Done, e.Reused, e.Stale, e.Claimed, e.Extended, e.Resumed)
		if unchecked {
			fmt.Fprintf(tw, "%d\t", e.Unchecked)
		}
		fmt.Fprintf(tw, "%d\t%s\t\n", e.Splits, studies.FormatDuration(seconds(e.EstSeconds)))
	}
	tw.Flush()
	if unchecked {
		fmt.Fprintf(w, "(unchecked: cells left whose saved result cannot be checked against its data, because these datasets could not be opened here: %s; they count as left, not as saved: pass --data-dir DIR or set PCGCN_DATA=DIR to a copy laid out like shared/datasets)\n",
			strings.Join(out.Total.Unopened, ", "))
	}
	if workers > 0 {
		fmt.Fprintf(w, "with %d workers: about %s (the largest share when the cells left are shared out longest first)\n",
			workers, studies.FormatDuration(seconds(out.WorkersSeconds)))
	}
	for _, e := range plan {
		if len(e.ByDataset) > 1 {
			fmt.Fprintf(w, "(%s: estimated time left by dataset: %s)\n", e.Study, bySeconds(e.ByDataset))
		}
		if len(e.ByModel) > 1 {
			fmt.Fprintf(w, "(%s: estimated time left by model: %s)\n", e.Study, bySeconds(e.ByModel))
		}
	}
	fmt.Fprintln(w, "(reused: saved cells answered by a saved result holding more splits than asked for, nothing trained; extended: cells left whose saved result lacks some of the splits asked for, which alone are trained and added to it: a saved result is never replaced by one with fewer splits)")
	fmt.Fprintln(w, "(claimed: cells left that a live worker is training, see --worker; resumed: cells left that an interrupted run began, whose finished splits are kept and not counted in the splits left)")
	for _, e := range plan {
		switch {
		case e.Cells == 0 && e.Done == 0:
			fmt.Fprintf(w, "(%s: nothing to run with these --datasets and --models: none of them is among the study's)\n", e.Study)
		case e.Unit != "" && e.Shared:
			fmt.Fprintf(w, "(%s: %s instead of cells, and the splits left of the rungs known so far; --worker processes share them, rung by rung)\n", e.Study, e.Unit)
		case e.Unit != "":
			fmt.Fprintf(w, "(%s: %s instead of cells, each one run, and those left instead of splits; taken by a plain run only, never by --worker, so --workers leaves them out)\n", e.Study, e.Unit)
		}
	}
	fmt.Fprintf(w, "(stale: saved cells of other numerics than this build's %s, or not recording theirs, which reproduce within their spread, not bit for bit, and --refresh trains them again; and cells saved for other data (a dataset's files changed) or another budget, which are never used and are trained again, on all their splits; another --seed keeps its cells apart, in <results>/seed<N>/)\n", tensor.Numerics())
	fmt.Fprintln(w, "(estimates: seconds per split per unit of an epoch's work, the multiply-adds of the cell's configuration on its graph (hidden h, layers L: L·(nodes·h² + adjacency entries·h) + feature values·h; a search's trials are 64 to 512 wide and 1 to 10 deep), of the same model on the same dataset in saved cells, else of the model on any dataset, at the threads and load of those runs; a model with none gets the median rate of the others, and in a directory with no saved cell each model gets its rate in this project's own reproduction, on 2 cores at 1 thread per cell)")
}
