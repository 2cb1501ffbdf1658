package train

import (
	"errors"
	"fmt"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
)

// Options control one training run.
type Options struct {
	// Epochs is the maximum number of epochs (default 1000).
	Epochs int `json:"epochs"`
	// Patience stops training when the best validation metric has not improved
	// for this many epochs (default 200; 0 disables early stopping).
	Patience int `json:"patience"`
	// Threads is the number of goroutines of the kernels (0: GOMAXPROCS).
	Threads int `json:"threads"`
	// Seed is the base seed; split k trains with a seed derived from (Seed, k).
	Seed uint64 `json:"seed"`
	// Metric is the validation and test metric: accuracy, or ROC AUC
	// (binary datasets).
	Metric datasets.Metric `json:"metric"`
	// DropClass removes the training labels of a class (the missing-class
	// study); the zero value keeps all.
	DropClass ClassDrop `json:"drop_class"`
	// Batch, when set, trains on mini-batches of sampled neighbourhoods
	// instead of the whole graph at once (see BatchOptions); nil: full batch.
	Batch *BatchOptions `json:"batch,omitempty"`
	// Progress, when set, is called after every epoch.
	Progress func(Progress) `json:"-"`
	// Heartbeat, when set, is called after every epoch with the split, the
	// epoch (1-based), Epochs and the best validation metric so far. Unlike
	// Progress it asks for nothing beyond what training computes anyway (no
	// training metric, no validation loss), so a long run can say that it is
	// alive at no cost. Splits trained side by side call it from their own
	// goroutines.
	Heartbeat func(split, epoch, epochs int, bestVal float64) `json:"-"`
	// Checkpoint, when set, keeps each split's state in progress on disk so
	// that a killed run resumes inside the split (full batch only; see
	// Checkpoint).
	Checkpoint *Checkpoint `json:"-"`
	// Stop, when set, interrupts training once closed: a split in training
	// ends at the end of its current epoch with ErrStopped, after saving
	// its state when Checkpoint is set (a later run resumes there, bit for
	// bit), instead of losing what it did since its last save; a split at
	// its last epoch, or stopped early by Patience, ends as usual.
	Stop <-chan struct{} `json:"-"`
}

// ErrStopped is what Run returns for a split that Options.Stop ended before
// its last epoch.
var ErrStopped = errors.New("training stopped before the split ended")

// stopped reports whether stop is closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// DefaultOptions are the protocol defaults: up to 1000 epochs with patience
// 200 on the validation metric (what GPRGNN's and Geom-GCN-split baselines'
// code uses), seed 42, accuracy.
func DefaultOptions() Options {
	return Options{Epochs: 1000, Patience: 200, Seed: 42, Metric: datasets.Accuracy}
}

// Progress is reported after each epoch: the split, the epoch (1-based) of
// at most Epochs, the epoch's training loss (the mean over its batches in
// mini-batch training), the metric (Options.Metric, in [0,1]) of the
// training nodes and of the validation nodes after the epoch's step, the
// validation loss, and the best validation metric so far.
type Progress struct {
	Split, Epoch, Epochs int
	Loss                 float64
	Train, Val, BestVal  float64
	ValLoss              float64
}

func (o *Options) validate(g *graph.Graph) error {
	if o.Epochs < 1 {
		return fmt.Errorf("epochs must be ≥ 1, got %d", o.Epochs)
	}
	if o.Patience < 0 {
		return fmt.Errorf("patience must be ≥ 0, got %d", o.Patience)
	}
	switch o.Metric {
	case datasets.Accuracy:
	case datasets.ROCAUC:
		if g.NumClasses != 2 {
			return fmt.Errorf("metric %s needs a binary dataset, %s has %d classes", o.Metric, g.Name, g.NumClasses)
		}
	default:
		return fmt.Errorf("metric must be %s or %s, got %q", datasets.Accuracy, datasets.ROCAUC, o.Metric)
	}
	if k, ok := o.DropClass.Class(); ok && (k < 0 || k >= g.NumClasses) {
		return fmt.Errorf("drop_class must be -1 (none) or a class of %s in [0,%d), got %d", g.Name, g.NumClasses, k)
	}
	if o.Batch != nil {
		if err := o.Batch.validate(); err != nil {
			return err
		}
	}
	if o.Threads < 0 {
		return fmt.Errorf("threads must be ≥ 0 (0: all cores), got %d", o.Threads)
	}
	return nil
}
