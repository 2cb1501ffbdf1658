package train

import (
	"context"
	"math"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
)

// SplitScores are one split's numbers as every result records them, from
// a saved cell to train's JSON: the metric on validation and test and the
// test accuracy, in percent, at the best-validation epoch, with the epochs
// and the time.
type SplitScores struct {
	Split int `json:"split"`
	// Val and Test are the metric (accuracy or ROC AUC).
	Val       float64 `json:"val"`
	Test      float64 `json:"test"`
	BestEpoch int     `json:"best_epoch"`
	Epochs    int     `json:"epochs"`
	Seconds   float64 `json:"seconds"`
	// TestAcc is the test accuracy whatever the metric, and MsPerEpoch the
	// mean training-step time (absent from cells saved before they were
	// recorded).
	TestAcc    float64 `json:"test_acc,omitempty"`
	MsPerEpoch float64 `json:"ms_per_epoch,omitempty"`
	// ContinuedEpochs and ContinuedSeconds are the epochs and wall time of
	// a shorter run whose end state the split continued (Result's), part of
	// Epochs and Seconds; absent for a split trained from its first epoch.
	ContinuedEpochs  int     `json:"continued_epochs,omitempty"`
	ContinuedSeconds float64 `json:"continued_seconds,omitempty"`
}

// Scores returns r's numbers in percent.
func (r *Result) Scores() SplitScores {
	return SplitScores{Split: r.Split, Val: 100 * r.Val, Test: 100 * r.Test, BestEpoch: r.BestEpoch, Epochs: r.Epochs, Seconds: r.Seconds,
		TestAcc: 100 * r.TestAccuracy, MsPerEpoch: r.MsPerEpoch, ContinuedEpochs: r.ContinuedEpochs, ContinuedSeconds: r.ContinuedSeconds}
}

// Scores are the numbers of several splits as every result records them:
// means and population standard deviations (numpy's default, as the
// literature reports them) in percent, the mean training-step time and the
// total wall time.
type Scores struct {
	// TestMean and TestStd are the test metric (accuracy or ROC AUC).
	TestMean float64 `json:"test_mean"`
	TestStd  float64 `json:"test_std"`
	ValMean  float64 `json:"val_mean"`
	ValStd   float64 `json:"val_std"`
	// TestAccMean and TestAccStd are the test accuracy (equal to TestMean
	// and TestStd when the metric is accuracy).
	TestAccMean float64 `json:"test_acc_mean"`
	TestAccStd  float64 `json:"test_acc_std"`
	MsPerEpoch  float64 `json:"ms_per_epoch"`
	Seconds     float64 `json:"seconds"`
}

// Summarize returns the scores over splits.
func Summarize(splits []SplitScores) Scores {
	var s Scores
	var test, val, acc, ms []float64
	for _, sp := range splits {
		test, val, acc, ms = append(test, sp.Test), append(val, sp.Val), append(acc, sp.TestAcc), append(ms, sp.MsPerEpoch)
		s.Seconds += sp.Seconds
	}
	s.TestMean, s.TestStd = MeanStd(test)
	s.ValMean, s.ValStd = MeanStd(val)
	s.TestAccMean, s.TestAccStd = MeanStd(acc)
	s.MsPerEpoch, _ = MeanStd(ms)
	return s
}

// RunSplits trains on each listed split (RunEach: several at once on a
// small graph, each result the one Run gives it alone) and returns the
// results in the order of splits.
func RunSplits(g *graph.Graph, splits []int, spec models.Spec, cfg models.Config, opt Options) ([]*Result, error) {
	rs := make([]*Result, len(splits))
	err := RunEach(context.Background(), g, splits, spec, cfg, opt, SplitHooks{Done: func(i int, r *Result) error {
		rs[i] = r
		return nil
	}})
	if err != nil {
		return nil, err
	}
	return rs, nil
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
