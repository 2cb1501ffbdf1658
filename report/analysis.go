package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pcgcn/pcgcn/experiments"
)

// Bin is one node-homophily interval of [BucketAccuracy]: the test nodes of
// every split whose node homophily lies in [Lo, Hi) (the last bin is closed
// at 1), with the accuracy of each model on them.
type Bin struct {
	// Lo and Hi bound the interval.
	Lo, Hi float64
	// Nodes counts the test-node occurrences in the bin, pooled over splits
	// (a node that is a test node in 10 splits counts 10 times) and over the
	// models (a (split, node) pair tested by several models counts once).
	Nodes int
	// Share is Nodes over the test-node occurrences of all bins (isolated
	// nodes excluded), in [0, 1].
	Share float64
	// Acc[m] is model m's accuracy in percent on the bin's nodes (NaN when
	// the model has none); Count[m] is the number of them.
	Acc   []float64
	Count []int
}

// BucketAccuracy pools the test nodes of all splits of each result (one
// result per model, all on the same dataset) and groups them by node
// homophily h (see graph.NodeHomophily) into bins of the given width:
// [0, w), [w, 2w), …, [1−w, 1]. Width must divide 1 (0.1, 0.2, 0.25, …).
//
// Nodes whose homophily is NaN (isolated nodes) are left out of every bin
// and counted in isolated (test-node occurrences pooled over splits and
// models, like Bin.Nodes). Every split of every result must carry per-node
// outputs (the cells' collect setting).
func BucketAccuracy(rs []*experiments.Result, h []float64, width float64) (bins []Bin, isolated int, err error) {
	nb, err := binCount(width)
	if err != nil {
		return nil, 0, err
	}
	if len(rs) == 0 {
		return nil, 0, fmt.Errorf("report: BucketAccuracy: no results")
	}
	bins = make([]Bin, nb)
	for b := range bins {
		bins[b].Lo = float64(b) * width
		bins[b].Hi = float64(b+1) * width
		bins[b].Acc = make([]float64, len(rs))
		bins[b].Count = make([]int, len(rs))
	}
	bins[nb-1].Hi = 1
	right := make([][]int, nb)
	for b := range right {
		right[b] = make([]int, len(rs))
	}
	seen := map[[2]int32]bool{}
	for m, r := range rs {
		err := eachTestNode(r, len(h), func(split int, node int32, ok bool) error {
			v := h[node]
			occ := [2]int32{int32(split), node}
			first := !seen[occ]
			seen[occ] = true
			if math.IsNaN(v) {
				if first {
					isolated++
				}
				return nil
			}
			if v < 0 || v > 1 {
				return fmt.Errorf("node %d has homophily %v outside [0, 1]", node, v)
			}
			b := binOf(v, width, nb)
			if first {
				bins[b].Nodes++
			}
			bins[b].Count[m]++
			if ok {
				right[b][m]++
			}
			return nil
		})
		if err != nil {
			return nil, 0, fmt.Errorf("report: BucketAccuracy: %w", err)
		}
	}
	total := 0
	for _, b := range bins {
		total += b.Nodes
	}
	for b := range bins {
		if total > 0 {
			bins[b].Share = float64(bins[b].Nodes) / float64(total)
		}
		for m := range rs {
			bins[b].Acc[m] = percent(right[b][m], bins[b].Count[m])
		}
	}
	return bins, isolated, nil
}

// binCount returns 1/width when it is a whole number of bins.
func binCount(width float64) (int, error) {
	if !(width > 0 && width <= 1) {
		return 0, fmt.Errorf("report: bin width %v outside (0, 1]", width)
	}
	nb := int(math.Round(1 / width))
	if math.Abs(float64(nb)*width-1) > 1e-9 {
		return 0, fmt.Errorf("report: bin width %v does not divide 1", width)
	}
	return nb, nil
}

// binOf returns the bin of v in [0, 1]. The small tolerance puts values
// such as 3/5 = 0.6 in [0.6, 0.8) although 0.6/0.2 rounds to 2.9999….
func binOf(v, width float64, nb int) int {
	b := int(math.Floor(v/width + 1e-9))
	return min(max(b, 0), nb-1)
}

func percent(right, n int) float64 {
	if n == 0 {
		return math.NaN()
	}
	return 100 * float64(right) / float64(n)
}

// eachTestNode calls f for every test node of every split of r, checking the
// per-node outputs against the number of nodes n.
func eachTestNode(r *experiments.Result, n int, f func(split int, node int32, correct bool) error) error {
	if r == nil {
		return fmt.Errorf("nil result")
	}
	if len(r.PerSplit) == 0 {
		return fmt.Errorf("%s on %s: no splits", r.Cell.Model, r.Cell.Dataset)
	}
	for _, s := range r.PerSplit {
		if s.Nodes == nil {
			return fmt.Errorf("%s on %s, split %d: no per-node outputs (run the cell with the collect setting)", r.Cell.Model, r.Cell.Dataset, s.Split)
		}
		if len(s.Nodes.Test) != len(s.Nodes.Correct) {
			return fmt.Errorf("%s on %s, split %d: %d test nodes but %d outcomes", r.Cell.Model, r.Cell.Dataset, s.Split, len(s.Nodes.Test), len(s.Nodes.Correct))
		}
		for k, node := range s.Nodes.Test {
			if node < 0 || int(node) >= n {
				return fmt.Errorf("%s on %s, split %d: test node %d outside [0, %d)", r.Cell.Model, r.Cell.Dataset, s.Split, node, n)
			}
			if err := f(s.Split, node, s.Nodes.Correct[k]); err != nil {
				return fmt.Errorf("%s on %s, split %d: %w", r.Cell.Model, r.Cell.Dataset, s.Split, err)
			}
		}
	}
	return nil
}

// DistanceBucket is one shortest-label-distance class of
// [AccuracyByDistance].
type DistanceBucket struct {
	// Label names the bucket: "1", "2", …, "≥5", "unreachable".
	Label string
	// Min is the smallest SLD in the bucket (-1 for "unreachable").
	Min int
	// Nodes counts the test-node occurrences in the bucket, pooled over
	// splits, each (split, node) pair once whatever the number of models.
	Nodes int
	// Acc[m] is model m's accuracy in percent (NaN without nodes); Count[m]
	// the number of its test nodes in the bucket.
	Acc   []float64
	Count []int
}

// AccuracyByDistance groups the test nodes of every split by their shortest
// label distance (graph.ShortestLabelDistance with that split's training
// nodes; sld(split) returns it for all nodes) into maxD+1 buckets: SLD = 1,
// 2, …, maxD−1 one by one, "≥maxD", and "unreachable" (SLD −1), and returns
// each model's accuracy pooled over splits. rs holds one result per model,
// all on the same dataset. A test node with SLD 0 (a training node) is an
// error: it means sld does not belong to the split.
func AccuracyByDistance(rs []*experiments.Result, sld func(split int) []int32, maxD int) ([]DistanceBucket, error) {
	if maxD < 1 {
		return nil, fmt.Errorf("report: AccuracyByDistance: maxD %d < 1", maxD)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("report: AccuracyByDistance: no results")
	}
	// Buckets 0..maxD-1 hold SLD 1..maxD (the last one "≥maxD"), bucket
	// maxD the unreachable nodes.
	out := make([]DistanceBucket, maxD+1)
	for b := 0; b < maxD; b++ {
		out[b].Label = fmt.Sprint(b + 1)
		out[b].Min = b + 1
	}
	out[maxD-1].Label = fmt.Sprintf("≥%d", maxD)
	out[maxD].Label = "unreachable"
	out[maxD].Min = -1
	right := make([][]int, len(out))
	for b := range out {
		out[b].Acc = make([]float64, len(rs))
		out[b].Count = make([]int, len(rs))
		right[b] = make([]int, len(rs))
	}
	cache := map[int][]int32{}
	seen := map[[2]int32]bool{}
	for m, r := range rs {
		if r == nil {
			return nil, fmt.Errorf("report: AccuracyByDistance: result %d is nil", m)
		}
		// The node count comes from the distances of the result's first split.
		var n int
		if len(r.PerSplit) > 0 {
			d, err := splitSLD(cache, sld, r.PerSplit[0].Split)
			if err != nil {
				return nil, err
			}
			n = len(d)
		}
		err := eachTestNode(r, n, func(split int, node int32, ok bool) error {
			d, err := splitSLD(cache, sld, split)
			if err != nil {
				return err
			}
			if int(node) >= len(d) {
				return fmt.Errorf("test node %d outside the %d distances", node, len(d))
			}
			var b int
			switch v := d[node]; {
			case v < 0:
				b = maxD
			case v == 0:
				return fmt.Errorf("test node %d has SLD 0 (it is a training node of the split)", node)
			default:
				b = min(int(v), maxD) - 1
			}
			occ := [2]int32{int32(split), node}
			if !seen[occ] {
				seen[occ] = true
				out[b].Nodes++
			}
			out[b].Count[m]++
			if ok {
				right[b][m]++
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("report: AccuracyByDistance: %w", err)
		}
	}
	for b := range out {
		for m := range rs {
			out[b].Acc[m] = percent(right[b][m], out[b].Count[m])
		}
	}
	return out, nil
}

func splitSLD(cache map[int][]int32, sld func(int) []int32, split int) ([]int32, error) {
	if d, ok := cache[split]; ok {
		return d, nil
	}
	d := sld(split)
	if d == nil {
		return nil, fmt.Errorf("report: no shortest label distances for split %d", split)
	}
	cache[split] = d
	return d, nil
}

// MeanStd is a mean and standard deviation (of test accuracy over splits, in
// percent).
type MeanStd struct {
	Mean, Std float64
}

// LabelRateSeries arranges the label-rate study's results as one series per
// model: series[model][i] is the test mean ± std of the cell with
// sizes[i] labels per class (the cell's labels_per_class setting), NaN when
// that cell is missing. Results without that setting are ignored.
func LabelRateSeries(rs []*experiments.Result, sizes []int) map[string][]MeanStd {
	pos := map[int]int{}
	for i, k := range sizes {
		pos[k] = i
	}
	series := map[string][]MeanStd{}
	for _, r := range rs {
		var k int
		if r == nil || !r.Cell.Opt("labels_per_class", &k) || k <= 0 {
			continue
		}
		i, ok := pos[k]
		if !ok {
			continue
		}
		s := series[r.Cell.Model]
		if s == nil {
			s = make([]MeanStd, len(sizes))
			for j := range s {
				s[j] = MeanStd{math.NaN(), math.NaN()}
			}
			series[r.Cell.Model] = s
		}
		s[i] = MeanStd{r.TestMean, r.TestStd}
	}
	return series
}

// Point is one point of a scatter or line figure.
type Point struct {
	X, Y float64
}

// MatchingPoints turns the matching study's results into one series per
// dataset: for every cell, X is the mean over its splits of the measurement
// Extra[key] (e.g. "match_test", in percent) and Y the test mean. Splits
// without the measurement are skipped; a cell without any is left out.
// Each series is sorted by X.
func MatchingPoints(rs []*experiments.Result, key string) map[string][]Point {
	out := map[string][]Point{}
	for _, r := range rs {
		if r == nil {
			continue
		}
		var sum float64
		var n int
		for _, s := range r.PerSplit {
			if v, ok := s.Extra[key]; ok && !math.IsNaN(v) {
				sum += v
				n++
			}
		}
		if n == 0 {
			continue
		}
		out[r.Cell.Dataset] = append(out[r.Cell.Dataset], Point{sum / float64(n), r.TestMean})
	}
	for _, ps := range out {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
	}
	return out
}

// accTableHeader writes the header of a per-bucket accuracy table: the
// bucket column, one count or share column, and each model's accuracy.
func accTableHeader(b *strings.Builder, bucket, size string, models []string) {
	fmt.Fprintf(b, "| %s | %s |", bucket, size)
	for _, m := range models {
		fmt.Fprintf(b, " %s acc. %% (n) |", m)
	}
	fmt.Fprint(b, "\n| --- | ---: |")
	for range models {
		fmt.Fprint(b, " ---: |")
	}
	fmt.Fprintln(b)
}

// BucketTable renders bins as a Markdown table: one row per bin with the
// share of test nodes and each model's accuracy (and count).
func BucketTable(bins []Bin, models []string) string {
	var b strings.Builder
	accTableHeader(&b, "node homophily", "share of test nodes", models)
	for i, bin := range bins {
		closer := ")"
		if i == len(bins)-1 {
			closer = "]"
		}
		fmt.Fprintf(&b, "| [%.2g, %.2g%s | %.1f%% |", bin.Lo, bin.Hi, closer, 100*bin.Share)
		for m := range models {
			fmt.Fprintf(&b, " %s |", accCell(bin.Acc, bin.Count, m))
		}
		fmt.Fprintln(&b)
	}
	return b.String()
}

// DistanceTable renders distance buckets as a Markdown table: one row per
// bucket with its node count and each model's accuracy (and count).
func DistanceTable(buckets []DistanceBucket, models []string) string {
	var b strings.Builder
	accTableHeader(&b, "SLD", "test nodes (pooled over splits)", models)
	for _, d := range buckets {
		fmt.Fprintf(&b, "| %s | %d |", d.Label, d.Nodes)
		for m := range models {
			fmt.Fprintf(&b, " %s |", accCell(d.Acc, d.Count, m))
		}
		fmt.Fprintln(&b)
	}
	return b.String()
}

func accCell(acc []float64, count []int, m int) string {
	if m >= len(acc) || m >= len(count) || math.IsNaN(acc[m]) {
		return "–"
	}
	return fmt.Sprintf("%.1f (%d)", acc[m], count[m])
}
