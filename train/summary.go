package train

import (
	"math"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
)

// Summary aggregates the results of several splits.
type Summary struct {
	PerSplit []*Result `json:"per_split"`
	// TestMean and TestStd are in percent; Std is the population standard
	// deviation (numpy's default, as the literature reports it).
	TestMean float64 `json:"test_mean"`
	TestStd  float64 `json:"test_std"`
	ValMean  float64 `json:"val_mean"`
	ValStd   float64 `json:"val_std"`
	// TestAccMean and TestAccStd are the test accuracy in percent (equal to
	// TestMean/TestStd when the metric is accuracy).
	TestAccMean float64 `json:"test_acc_mean"`
	TestAccStd  float64 `json:"test_acc_std"`
	// MsPerEpoch is the mean training-step time over the splits.
	MsPerEpoch float64 `json:"ms_per_epoch"`
	// Seconds is the total wall time.
	Seconds float64 `json:"seconds"`
}

// RunSplits trains on each listed split in turn and summarises.
func RunSplits(g *graph.Graph, splits []int, spec models.Spec, cfg models.Config, opt Options) (*Summary, error) {
	var rs []*Result
	for _, k := range splits {
		r, err := Run(g, k, spec, cfg, opt)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return Summarize(rs), nil
}

// Summarize aggregates per-split results.
func Summarize(rs []*Result) *Summary {
	s := &Summary{PerSplit: rs}
	var test, val, ms, acc []float64
	for _, r := range s.PerSplit {
		test = append(test, 100*r.Test)
		acc = append(acc, 100*r.TestAccuracy)
		val = append(val, 100*r.Val)
		ms = append(ms, r.MsPerEpoch)
		s.Seconds += r.Seconds
	}
	s.TestMean, s.TestStd = MeanStd(test)
	s.ValMean, s.ValStd = MeanStd(val)
	s.TestAccMean, s.TestAccStd = MeanStd(acc)
	s.MsPerEpoch, _ = MeanStd(ms)
	return s
}

// MeanStd returns the mean and population standard deviation.
func MeanStd(xs []float64) (mean, std float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}
