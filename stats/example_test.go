package stats_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/stats"
)

// Four models on six datasets (higher is better): the Friedman test, then
// Nemenyi's critical difference and the groups a CD diagram joins.
func Example() {
	models := []string{"pcgcn", "gcn", "mlp", "linkx"}
	scores := [][]float64{
		{74.1, 65.9, 46.9, 68.4},
		{65.5, 49.8, 30.0, 61.8},
		{36.4, 27.5, 34.8, 36.1},
		{85.9, 55.1, 79.2, 74.6},
		{87.6, 51.8, 83.2, 75.5},
		{85.9, 60.5, 79.8, 77.8},
	}
	f, err := stats.FriedmanTest(scores)
	if err != nil {
		panic(err)
	}
	for m, name := range models {
		fmt.Printf("%s %.2f\n", name, f.Ranking.Average[m])
	}
	fmt.Printf("χ² = %.2f, p = %.4f; F = %.2f, p = %.4f\n", f.ChiSquare, f.P, f.F, f.PF)
	cd, _ := stats.CriticalDifference(f.K, f.N, 0.05)
	fmt.Printf("CD(0.05) = %.2f\n", cd)
	for _, g := range stats.Groups(f.Ranking.Average, stats.NemenyiSame(f.Ranking.Average, cd)) {
		var names []string
		for _, m := range g {
			names = append(names, models[m])
		}
		fmt.Println("not significantly different:", names)
	}
	// Output:
	// pcgcn 1.00
	// gcn 3.67
	// mlp 2.83
	// linkx 2.50
	// χ² = 13.40, p = 0.0038; F = 14.57, p = 0.0001
	// CD(0.05) = 1.91
	// not significantly different: [pcgcn linkx mlp]
	// not significantly different: [linkx mlp gcn]
}

// Model A against model B on one dataset over ten paired splits.
func ExamplePairedSplits() {
	a := []float64{69.78, 70.22, 70.13, 67.55, 70.15, 72.72, 66.91, 71.72, 70.24, 68.72}
	b := []float64{65.78, 68.08, 70.93, 66.44, 68.28, 72.0, 64.89, 70.82, 68.24, 65.56}
	p, _ := stats.PairedSplits(a, b)
	fmt.Printf("A − B = %.2f; t-test p = %.4f; Wilcoxon p = %.4f (exact %v)\n", p.MeanDiff, p.T.P, p.Wilcoxon.P, p.Wilcoxon.Exact)
	// Holm over three datasets' p-values
	fmt.Println(stats.HolmReject([]float64{p.Wilcoxon.P, 0.03, 0.2}, 0.05))
	// Output:
	// A − B = 1.71; t-test p = 0.0029; Wilcoxon p = 0.0059 (exact true)
	// [true false false]
}
