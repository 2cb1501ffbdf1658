package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/pcgcn/pcgcn/train"
)

// epochRecord is one epoch of one split: a line of train --log and an
// element of the history of train --json.
type epochRecord struct {
	Split int `json:"split"`
	// Epoch is 1-based.
	Epoch int `json:"epoch"`
	// Loss is the epoch's training loss (the optimised one: cross-entropy
	// plus the model's auxiliary loss), before its step.
	Loss float64 `json:"loss"`
	// TrainMetricPct and ValMetricPct are the metric (accuracy or ROC AUC)
	// of the training and validation nodes after the epoch's step, without
	// dropout, in percent.
	TrainMetricPct float64 `json:"train_metric_pct"`
	ValMetricPct   float64 `json:"val_metric_pct"`
	// ValLoss is the validation nodes' cross-entropy after the step.
	ValLoss float64 `json:"val_loss"`
}

// history collects the epochs of a run and writes each, as it ends, to
// the --log file (when one is given): one JSON object a line, flushed at
// every line, so that the file can be followed during a long run; a run
// that fails leaves the epochs it ran.
type history struct {
	records []epochRecord
	path    string
	f       *os.File
	w       *bufio.Writer
	enc     *json.Encoder
	// err is the first write error, reported after the split.
	err error
}

// newHistory opens path for the --log lines (none for "").
func newHistory(path string) (*history, error) {
	h := &history{path: path}
	if path == "" {
		return h, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--log %s: %w", path, err)
	}
	h.f, h.w = f, bufio.NewWriter(f)
	h.enc = json.NewEncoder(h.w)
	return h, nil
}

// add records an epoch.
func (h *history) add(e train.Progress) {
	r := epochRecord{Split: e.Split, Epoch: e.Epoch, Loss: e.Loss, TrainMetricPct: 100 * e.Train, ValMetricPct: 100 * e.Val, ValLoss: e.ValLoss}
	h.records = append(h.records, r)
	if h.enc == nil || h.err != nil {
		return
	}
	if err := h.enc.Encode(r); err != nil {
		h.err = fmt.Errorf("--log %s: %w", h.path, err)
	} else if err := h.w.Flush(); err != nil {
		h.err = fmt.Errorf("--log %s: %w", h.path, err)
	}
}

// close closes the --log file and returns the first error of writing it.
func (h *history) close() error {
	if h.f == nil {
		return h.err
	}
	err := h.f.Close()
	h.f = nil
	if h.err == nil && err != nil {
		h.err = fmt.Errorf("--log %s: %w", h.path, err)
	}
	return h.err
}
