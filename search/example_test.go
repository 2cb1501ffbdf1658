package search_test

import (
	"fmt"

	"github.com/pcgcn/pcgcn/search"
)

func ExampleParseDim() {
	for _, s := range []string{"lr=log:1e-4:1e-1", "hidden=int:16:256:log", "dropout=0:0.9", "norm=choice:none,layer,batch", "lr=log:0:1"} {
		d, err := search.ParseDim(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %s from %s to %s\n", d.Name, d.Kind, d.Value(0), d.Value(1))
	}
	// Output:
	// lr: float from 0.0001 to 0.1
	// hidden: int from 16 to 256
	// dropout: float from 0 to 0.9
	// norm: choice from none to batch
	// search dimension "lr": a log scale needs a positive lower bound, not 0
}

// The points of a seed are fixed: this output is also the golden test that a change to the
// sampler does not move them (a trial's ID names its saved cells).
func ExampleSpace_Sample() {
	space, err := search.ParseSpace("lr=log:1e-4:1e-1", "hidden=int:16:256:log", "norm=choice:none,layer")
	if err != nil {
		panic(err)
	}
	points, err := space.Sample(42, 3)
	if err != nil {
		panic(err)
	}
	for _, p := range points {
		fmt.Println(p.ID, p.Sets())
	}
	// Output:
	// deb9fcafa05b54ae [hidden=38 lr=0.001754 norm=none]
	// 674b8c680ff2dc6f [hidden=96 lr=0.005447 norm=none]
	// d749d55be3bc95bb [hidden=179 lr=0.0001722 norm=layer]
}

func ExampleSchedule_Rungs() {
	s := search.Schedule{Trials: 27, Eta: 3, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500}
	rungs, err := s.Rungs()
	if err != nil {
		panic(err)
	}
	for _, r := range rungs {
		fmt.Printf("rung %d: %2d trials × %2d splits × %3d epochs\n", r.Index, r.Trials, r.Splits, r.Epochs)
	}
	cost, _ := s.Cost()
	units, _ := s.TrialUnits()
	fmt.Printf("cost %d split-epochs, %.2f full trials\n", cost, units)
	// Output:
	// rung 0: 27 trials ×  1 splits ×  50 epochs
	// rung 1:  9 trials ×  2 splits × 108 epochs
	// rung 2:  3 trials ×  5 splits × 232 epochs
	// rung 3:  1 trials × 10 splits × 500 epochs
	// cost 11774 split-epochs, 2.35 full trials
}

func ExampleSchedule_Promote() {
	s := search.Schedule{Trials: 9, Eta: 3, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500}
	// validation scores of rung 0's nine trials; the next rung holds three
	validation := map[search.ID]float64{
		"p1": 61.2, "p2": 70.4, "p3": 55.0, "p4": 70.4, "p5": 68.9,
		"p6": 12.0, "p7": 66.6, "p8": 69.0, "p9": 40.1,
	}
	fmt.Println(s.Promote(0, validation))
	// Output:
	// [p2 p4 p8]
}
