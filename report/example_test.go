package report_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pcgcn/pcgcn/report"
)

// A critical-difference diagram of four models: the average ranks and the
// groups not significantly different come from the caller (package stats
// computes them), with Nemenyi's critical difference as the scale bar.
func ExampleCDDiagram() {
	dir, err := os.MkdirTemp("", "cd")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	err = report.CDDiagram(filepath.Join(dir, "cd.png"), report.CDFigure{
		Title:   "Average rank over 6 datasets",
		Models:  []string{"pcgcn", "gcn", "mlp", "linkx"},
		Ranks:   []float64{1.00, 3.67, 2.83, 2.50},
		Groups:  [][]int{{0, 3, 2}, {3, 2, 1}}, // by index into Models
		CD:      1.91,
		CDLabel: "CD (Nemenyi, α = 0.05)",
	})
	fmt.Println(err)
	// Output: <nil>
}
