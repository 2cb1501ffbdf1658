package train

import (
	"fmt"
	"math"
	"time"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/optim"
	"github.com/pcgcn/pcgcn/tensor"
)

// Result is the outcome of training on one split.
type Result struct {
	// Split is the split index.
	Split int `json:"split"`
	// BestEpoch is the epoch (1-based) with the best validation metric; ties
	// go to the lower validation loss, then to the earlier epoch.
	BestEpoch int `json:"best_epoch"`
	// Epochs is the number of epochs run.
	Epochs int `json:"epochs"`
	// Val and Test are the metric (accuracy or ROC AUC, in [0,1]) at BestEpoch.
	Val  float64 `json:"val"`
	Test float64 `json:"test"`
	// TestAccuracy is the test accuracy at BestEpoch (equal to Test when the
	// metric is accuracy).
	TestAccuracy float64 `json:"test_accuracy"`
	// Seconds is the wall time of the split (training and evaluation).
	Seconds float64 `json:"seconds"`
	// MsPerEpoch is the mean time of a training step (forward, backward, Adam).
	MsPerEpoch float64 `json:"ms_per_epoch"`
	// ContinuedEpochs is how many of Epochs a shorter run of the split
	// trained, whose end state this run continued (Checkpoint.Carry): 0 for
	// a split trained from its first epoch. ContinuedSeconds is that run's
	// wall time and ContinuedCPUSeconds its CPU time (−1: not counted), both
	// included in this run's: Seconds and MsPerEpoch count every epoch of
	// the result, as an uninterrupted run's would.
	ContinuedEpochs     int     `json:"continued_epochs,omitempty"`
	ContinuedSeconds    float64 `json:"continued_seconds,omitempty"`
	ContinuedCPUSeconds float64 `json:"continued_cpu_seconds,omitempty"`

	// Model is the trained model, restored to its best-validation parameters.
	Model models.Model `json:"-"`
	// Data is what the model was built on.
	Data *models.Data `json:"-"`
}

// SplitSeed derives the seed of split k from the base seed.
func SplitSeed(base uint64, k int) uint64 { return base*1_000_003 + uint64(k) }

// Run trains a model of the given spec and config on split k of g (Â is the
// graph's, computed once: graph.Graph.AHat). A run whose training loss
// becomes NaN or infinite stops with an error naming the split and the epoch.
func Run(g *graph.Graph, k int, spec models.Spec, cfg models.Config, opt Options) (*Result, error) {
	if err := opt.validate(g); err != nil {
		return nil, err
	}
	if k < 0 || k >= len(g.Splits) {
		return nil, fmt.Errorf("%s has %d splits, split %d requested", g.Name, len(g.Splits), k)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err // names the model already
	}
	split := g.Splits[k]
	if opt.Metric == datasets.ROCAUC {
		if err := checkBothClasses(g.Y, k, split); err != nil {
			return nil, fmt.Errorf("%s: %w", g.Name, err)
		}
	}
	if c, ok := opt.DropClass.Class(); ok {
		split.Train = withoutClass(split.Train, g.Y, int32(c))
		if len(split.Train) == 0 {
			return nil, fmt.Errorf("dropping class %d leaves no training node", c)
		}
	}
	tr, err := NewTrainer(g, split, spec, cfg, TrainerOptions{Seed: SplitSeed(opt.Seed, k), Threads: opt.Threads, Batch: opt.Batch})
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	params := tr.Model.Params()

	best := snapshot(params)
	res := &Result{Split: k, Val: math.Inf(-1), Data: tr.Data, Model: tr.Model}
	bestLoss := math.Inf(1)
	start := time.Now()
	var trainTime, before time.Duration // before: the wall time of a resumed run's earlier part
	since, first := 0, 1
	var ck *checkpointer
	kept := false // the state stays on disk for a later run (Stop)
	// the CPU seconds carried from earlier runs of the split, this run's
	// reading at its start, and whether the count is whole
	var cpuBefore, cpuStart float64
	cpuKnown := true
	if opt.Checkpoint != nil && opt.Batch == nil {
		ck = newCheckpointer(opt.Checkpoint, k)
		if opt.Checkpoint.CPU != nil {
			cpuStart = opt.Checkpoint.CPU()
		}
		st, resumed := ck.load(k), opt.Checkpoint.Resumed
		if st == nil && opt.Checkpoint.Carry != nil {
			st, resumed = loadCarried(opt.Checkpoint.Carry, k, opt.Epochs, opt.Patience), opt.Checkpoint.Carry.Continued
		}
		if st != nil && tr.restore(st, params, best) == nil {
			first, since, bestLoss = st.Epoch+1, st.Since, st.BestLoss
			res.Epochs, res.BestEpoch, res.Val, res.Test, res.TestAccuracy = st.Epoch, st.BestEpoch, st.Val, st.Test, st.TestAccuracy
			trainTime, before = time.Duration(st.TrainNanos), time.Duration(st.ElapsedNanos)
			cpuBefore, cpuKnown = st.CPUSeconds, st.CPUKnown
			res.ContinuedEpochs, res.ContinuedSeconds, res.ContinuedCPUSeconds = st.ContinuedEpochs, time.Duration(st.ContinuedNanos).Seconds(), st.ContinuedCPU
			if opt.Patience > 0 && since >= opt.Patience {
				first = opt.Epochs + 1 // a continued state this run's patience ends at once
			}
			if resumed != nil {
				carried := -1.0
				if cpuKnown {
					carried = cpuBefore
				}
				resumed(k, st.Epoch, carried)
			}
		}
		defer func() {
			if !kept {
				ck.remove()
			}
		}()
	}
	// stateAt is the split's state after epoch (a checkpoint's, or the
	// end state a longer run continues)
	stateAt := func(epoch, since int, bestLoss float64) *runState {
		st := tr.state(params, best)
		st.Split, st.Epoch, st.BestEpoch, st.Since = k, epoch, res.BestEpoch, since
		st.Val, st.Test, st.TestAccuracy, st.BestLoss = res.Val, res.Test, res.TestAccuracy, bestLoss
		st.TrainNanos, st.ElapsedNanos = int64(trainTime), int64(before+time.Since(start))
		st.CPUSeconds, st.CPUKnown = ck.cpuSpent(cpuBefore, cpuStart, cpuKnown)
		st.ContinuedEpochs, st.ContinuedNanos, st.ContinuedCPU = res.ContinuedEpochs, int64(res.ContinuedSeconds*1e9), res.ContinuedCPUSeconds
		return st
	}
	for epoch := first; epoch <= opt.Epochs; epoch++ {
		t0 := time.Now()
		loss, err := tr.Step()
		if err != nil {
			return nil, err
		}
		trainTime += time.Since(t0)
		if math.IsNaN(loss) || math.IsInf(loss, 0) {
			// the parameters are garbage from here on: what the model would
			// report is not a result
			return nil, fmt.Errorf("%s split %d: the training loss became %v at epoch %d: training diverged (lr %g, weight_decay %g; a lower lr may help)",
				g.Name, k, loss, epoch, cfg.Base().LR, cfg.Base().WeightDecay)
		}
		ev := tr.Evaluate(opt.Metric, opt.Progress != nil)
		res.Epochs = epoch
		if ev.Val > res.Val || (ev.Val == res.Val && ev.ValLoss < bestLoss) {
			res.Val, res.Test, res.TestAccuracy, res.BestEpoch, bestLoss = ev.Val, ev.Test, ev.TestAccuracy, epoch, ev.ValLoss
			best.save(params)
			since = 0
		} else {
			since++
		}
		if opt.Progress != nil {
			opt.Progress(Progress{Split: k, Epoch: epoch, Epochs: opt.Epochs, Loss: loss, Train: ev.Train, Val: ev.Val, ValLoss: ev.ValLoss, BestVal: res.Val})
		}
		if opt.Heartbeat != nil {
			opt.Heartbeat(k, epoch, opt.Epochs, res.Val)
		}
		if opt.Patience > 0 && since >= opt.Patience {
			break
		}
		stop := epoch < opt.Epochs && stopped(opt.Stop)
		if ck != nil && epoch < opt.Epochs && (stop || ck.due()) {
			if err := ck.save(stateAt(epoch, since, bestLoss)); err != nil {
				return nil, err
			}
		}
		if stop {
			kept = ck != nil
			return nil, ErrStopped
		}
	}
	if c := opt.Checkpoint; ck != nil && c.Carry != nil && c.Carry.Keep {
		st := stateAt(res.Epochs, since, bestLoss)
		st.End, st.Epochs, st.Patience = true, opt.Epochs, opt.Patience
		// a state that cannot be written (a full disk) is not kept: a longer
		// run then trains from its first epoch (or from the state this one
		// continued), with the same numbers; the split's result stands
		_ = saveState(c.Carry.Path(k), c.Carry.Key, st)
	}
	best.restore(params)
	res.Seconds = (before + time.Since(start)).Seconds()
	res.MsPerEpoch = float64(trainTime.Microseconds()) / 1000 / float64(res.Epochs)
	return res, nil
}

// NewOptimizer returns Adam with the config's learning rate and PyTorch-style
// weight decay (AdamW's decoupled decay when the config's Optimizer is
// "adamw"), except for parameters the model exempts (models.NoDecay), which
// get their own group without decay.
func NewOptimizer(model models.Model, cfg models.Config) *optim.Adam {
	lr, wd := cfg.Base().LR, cfg.Base().WeightDecay
	newAdam := optim.NewAdam
	if cfg.Base().Optimizer == "adamw" {
		newAdam = optim.NewAdamW
	}
	nd, ok := model.(models.NoDecay)
	if !ok {
		return newAdam(model.Params(), lr, wd)
	}
	exempt := map[*autograd.Var]bool{}
	for _, p := range nd.NoDecayParams() {
		exempt[p] = true
	}
	var decayed, free []*autograd.Var
	for _, p := range model.Params() {
		if exempt[p] {
			free = append(free, p)
		} else {
			decayed = append(decayed, p)
		}
	}
	adam := newAdam(decayed, lr, wd)
	if len(free) > 0 {
		adam.AddGroup(free, lr, 0)
	}
	return adam
}

// Step runs one training epoch: forward with dropout, cross-entropy on the
// training nodes plus the model's auxiliary loss, backward and an optimiser
// step. It returns the loss.
func Step(tape *autograd.Tape, model models.Model, opt optim.Optimizer, data *models.Data) float64 {
	tape.Reset()
	tape.SetNoGrad(false)
	tape.Training = true
	opt.ZeroGrad()
	out := model.Forward(tape)
	loss := tape.CrossEntropy(out.Logits, data.Graph.Y, data.Train)
	if out.Aux != nil {
		loss = tape.Add(loss, out.Aux)
	}
	tape.Backward(loss)
	opt.Step()
	return float64(loss.Scalar())
}

// evaluate returns the validation and test metric, the test accuracy and the
// validation loss, without dropout and without recording; with withTrain
// also the training nodes' metric (for the progress report only: the
// protocol never reads it).
func evaluate(tape *autograd.Tape, model models.Model, data *models.Data, metric datasets.Metric, withTrain bool) Evaluation {
	return score(Logits(tape, model), data, metric, withTrain)
}

// score scores the logits of every node of data's graph by metric
// (withTrain: the training nodes too).
func score(logits *tensor.Dense, data *models.Data, metric datasets.Metric, withTrain bool) Evaluation {
	y := data.Graph.Y
	ev := Evaluation{TestAccuracy: Accuracy(logits, y, data.Test), ValLoss: crossEntropy(logits, y, data.Val)}
	score := Accuracy
	if metric == datasets.ROCAUC {
		score = ROCAUC
		ev.Val, ev.Test = ROCAUC(logits, y, data.Val), ROCAUC(logits, y, data.Test)
	} else {
		ev.Val, ev.Test = Accuracy(logits, y, data.Val), ev.TestAccuracy
	}
	if withTrain {
		ev.Train = score(logits, y, data.Train)
	}
	return ev
}

// Logits runs model in evaluation mode (no dropout, nothing recorded) and
// returns its logits; the matrix is owned by tape and valid until its next
// Reset.
func Logits(tape *autograd.Tape, model models.Model) *tensor.Dense {
	tape.Reset()
	tape.SetNoGrad(true)
	tape.Training = false
	tape.LogitsOnly = true // no auxiliary loss (PCGCN's consistency term)
	defer func() { tape.SetNoGrad(false); tape.LogitsOnly = false }()
	return model.Forward(tape).Logits.Value
}

// crossEntropy is the mean negative log-softmax of the labels over idx.
func crossEntropy(logits *tensor.Dense, y []int32, idx []int32) float64 {
	if len(idx) == 0 {
		return 0
	}
	var s float64
	for _, i := range idx {
		r := logits.Row(int(i))
		m := r[0]
		for _, v := range r {
			m = max(m, v)
		}
		var z float64
		for _, v := range r {
			z += math.Exp(float64(v - m))
		}
		s += math.Log(z) - float64(r[y[i]]-m)
	}
	return s / float64(len(idx))
}

func withoutClass(idx []int32, y []int32, c int32) []int32 {
	var out []int32
	for _, i := range idx {
		if y[i] != c {
			out = append(out, i)
		}
	}
	return out
}

// paramSnapshot holds copies of parameter values.
type paramSnapshot [][]float32

func snapshot(ps []*autograd.Var) paramSnapshot {
	s := make(paramSnapshot, len(ps))
	for i, p := range ps {
		s[i] = append([]float32(nil), p.Value.Data...)
	}
	return s
}

func (s paramSnapshot) save(ps []*autograd.Var) {
	for i, p := range ps {
		copy(s[i], p.Value.Data)
	}
}

func (s paramSnapshot) restore(ps []*autograd.Var) {
	for i, p := range ps {
		copy(p.Value.Data, s[i])
	}
}
