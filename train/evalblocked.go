package train

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"unsafe"

	"github.com/pcgcn/pcgcn/internal/mmap"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
)

// DefaultEvalBlock is the number of nodes per block of a mini-batch run's
// layer-wise evaluation (BatchOptions.EvalBlock 0): 65,536 rows of 64
// hidden units are 16 MiB per block matrix, small next to the two layer
// stores of a graph worth batching, large enough for the kernels' threads.
const DefaultEvalBlock = 1 << 16

// blockedLogits returns the logits of the whole graph by the model's
// layer-wise evaluation (models.BlockEvaluator) in a mini-batch run, and
// false when it has none (full batch, the model or its configuration, or
// EvalBlock < 0): the caller then evaluates the whole
// graph at once. A failing file store (the temporary directory) falls back
// to stores on the heap, with the same numbers.
func (t *Trainer) blockedLogits() (*tensor.Dense, bool) {
	o := t.batch
	be, ok := t.Model.(models.BlockEvaluator)
	if o == nil || !ok || o.EvalBlock < 0 {
		return nil, false
	}
	b := models.Blocks{Size: o.EvalBlock}
	if b.Size == 0 {
		b.Size = DefaultEvalBlock
	}
	if o.EvalDir != "" {
		b.Store = fileRows(o.EvalDir)
	}
	logits, err := be.LogitsBlocked(t.tape, b)
	if err != nil && !errors.Is(err, models.ErrNoBlockedEval) && b.Store != nil {
		b.Store = nil
		logits, err = be.LogitsBlocked(t.tape, b)
	}
	if err != nil {
		return nil, false
	}
	return logits, true
}

// fileRows returns a models.Blocks store that keeps each layer's rows in a
// memory-mapped file of its own in a new temporary directory under dir,
// deleted when the store is closed.
func fileRows(dir string) func(rows, cols int) (models.RowStore, error) {
	return func(rows, cols int) (models.RowStore, error) {
		tmp, err := os.MkdirTemp(dir, "pcgcn-eval-")
		if err != nil {
			return nil, fmt.Errorf("evaluation rows: %w", err)
		}
		f, err := mmap.Create(filepath.Join(tmp, "rows.f32"), 4*rows*cols)
		if err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("evaluation rows: %w", err)
		}
		s := &mappedRows{f: f, dir: tmp, d: &tensor.Dense{Rows: rows, Cols: cols}}
		if b := f.Bytes(); len(b) > 0 {
			s.d.Data = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), rows*cols)
		}
		return s, nil
	}
}

// mappedRows is a models.RowStore in a memory-mapped file.
type mappedRows struct {
	f   *mmap.File
	dir string
	d   *tensor.Dense
}

// Dense returns the mapped rows.
func (m *mappedRows) Dense() *tensor.Dense { return m.d }

// Release gives the pages of rows [lo, hi) back (their content stays in the file).
func (m *mappedRows) Release(lo, hi int) {
	b := m.f.Bytes()
	w := 4 * m.d.Cols
	if lo >= hi || len(b) == 0 {
		return
	}
	m.f.Release(b[lo*w : hi*w])
}

// Close unmaps the file and removes its directory.
func (m *mappedRows) Close() error {
	err := m.f.Close()
	m.d.Data = nil
	if e := os.RemoveAll(m.dir); err == nil {
		err = e
	}
	return err
}
