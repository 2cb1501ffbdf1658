package experiments

import (
	"errors"
	"fmt"
)

// The errors a caller of the runner may match (errors.Is, errors.As).

// CellError is the error of one cell: which cell, and what went wrong
// (wrapped).
type CellError struct {
	Cell Cell
	Err  error
}

// Error names the cell (study, model, dataset) and its error.
func (e *CellError) Error() string {
	return fmt.Sprintf("%s %s on %s: %v", e.Cell.Study, e.Cell.Model, e.Cell.Dataset, e.Err)
}

// Unwrap returns the cell's error.
func (e *CellError) Unwrap() error { return e.Err }

// ErrOtherPlan is the error (wrapped) of a worker whose results directory
// holds cells of its plan saved under another key (seed, budget or data):
// another plan uses the directory, and the worker would overwrite its cells.
var ErrOtherPlan = errors.New("another plan uses this directory")

// ErrInterrupted is returned by Work when its context is cancelled (a
// SIGTERM from scancel, say): the claims held were released so that another
// worker takes their cells up at once, resuming them from their per-split
// files.
var ErrInterrupted = errors.New("worker interrupted: its claims were released")
