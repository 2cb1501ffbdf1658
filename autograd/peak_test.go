package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/internal/simd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestPeakBytesCountsDropoutMasks: a training Dropout of n elements holds
// its output (4n bytes) and, with the vector kernels, its kept bits (2 bytes
// a block of 16) and the inner-hash table (8 bytes a group of 4), all in
// PeakBytes.
func TestPeakBytesCountsDropoutMasks(t *testing.T) {
	const rows, cols = 100, 64
	n := int64(rows * cols)
	tp := NewTape(tensor.Serial)
	tp.Training = true
	tp.RNG = rng.New(1)
	x := NewParam("x", testkit.RandDense(rows, cols, 5))
	tp.Dropout(x, 0.5)
	want := 4 * n
	if simd.Enabled() {
		want += 2*((n+15)/16) + 8*(n/4)
	}
	if got := tp.PeakBytes(); got != want {
		t.Errorf("PeakBytes %d, want %d (output, mask words and inner table)", got, want)
	}
}
