// The per-node accuracy that the homophily (hete) and shortest-label-distance
// (sld) studies share: both pool the test nodes of every split and group them.

package studies

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/report"
)

// percent is right out of n in percent, NaN when n is 0.
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

// accTable writes a per-bucket accuracy table: the bucket column, one count
// or share column, and each model's accuracy (and count), with a row per
// bucket: its name, its size and accCell of each model.
func accTable(bucket, size string, models []string, rows [][]string) string {
	head := []string{bucket, size}
	for _, m := range models {
		head = append(head, m+" acc. % (n)")
	}
	return report.Table(head, leftThenRight(1, len(head)), rows)
}

func accCell(acc []float64, count []int, m int) string {
	if m >= len(acc) || m >= len(count) || math.IsNaN(acc[m]) {
		return "–"
	}
	return fmt.Sprintf("%.1f (%d)", acc[m], count[m])
}
