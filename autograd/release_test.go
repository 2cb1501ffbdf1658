package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
)

// TestReleaseReusesBuffers: a released value's buffer serves the next
// allocation of its size, which lowers the tape's peak; the variable keeps
// its shape and still takes a gradient, and the gradients are those of a
// run that releases nothing.
func TestReleaseReusesBuffers(t *testing.T) {
	x0, w0 := testkit.RandDense(64, 16, 61), testkit.RandDense(16, 16, 62)
	run := func(release bool) (peak int64, gx, gw []float32) {
		tp := NewTape(tensor.Exec{Threads: 2})
		x, w := NewParam("x", x0.Clone()), NewParam("w", w0.Clone())
		h := x
		for range 4 {
			hw := tp.MatMul(h, w)
			next := tp.Tanh(tp.Add(hw, h)) // Add's backward reads no value
			if release {
				tp.Release(hw)
				if hw.Rows() != 64 || hw.Cols() != 16 {
					t.Fatalf("released variable has shape %dx%d", hw.Rows(), hw.Cols())
				}
			}
			h = next
		}
		tp.Backward(tp.Sum(h))
		return tp.PeakBytes(), x.Grad.Data, w.Grad.Data
	}
	p1, gx1, gw1 := run(false)
	p2, gx2, gw2 := run(true)
	if p2 >= p1 {
		t.Errorf("peak %d bytes with releases, %d without", p2, p1)
	}
	for i := range gx1 {
		if gx1[i] != gx2[i] {
			t.Fatalf("∂x[%d] %v with releases, %v without", i, gx2[i], gx1[i])
		}
	}
	for i := range gw1 {
		if gw1[i] != gw2[i] {
			t.Fatalf("∂w[%d] %v with releases, %v without", i, gw2[i], gw1[i])
		}
	}
}

// TestReleasedValueCannotBeRead: reading a released value panics instead of
// reading the numbers of whatever tensor reuses its buffer.
func TestReleasedValueCannotBeRead(t *testing.T) {
	tp := NewTape(tensor.Exec{Threads: 1})
	x := NewParam("x", testkit.RandDense(4, 3, 63))
	y := tp.Scale(x, 2)
	tp.Release(y)
	testkit.Panics(t, "reading a released value", func() {
		tp.Scale(y, 3)
	})
}

// TestReleaseLeavesForeignValues: parameters, constants and a variable
// released twice are left alone.
func TestReleaseLeavesForeignValues(t *testing.T) {
	tp := NewTape(tensor.Exec{Threads: 1})
	x := NewParam("x", testkit.RandDense(4, 3, 64))
	c := tp.Const(testkit.RandDense(4, 3, 65))
	y := tp.Scale(x, 2)
	tp.Release(x, c, y, y)
	if x.Value.Data == nil || c.Value.Data == nil {
		t.Fatal("a parameter or constant was released")
	}
	if y.Value.Data != nil {
		t.Fatal("the operation's value was not released")
	}
	// its buffer goes to the next allocation of its size, once
	a, b := tp.Alloc(4, 3), tp.Alloc(4, 3)
	if &a.Data[0] == &b.Data[0] {
		t.Fatal("a released buffer was handed out twice")
	}
	tp.Reset()
	seen := map[*float32]bool{}
	for range 4 {
		d := tp.Alloc(4, 3)
		if seen[&d.Data[0]] {
			t.Fatal("after Reset, a buffer was handed out twice")
		}
		seen[&d.Data[0]] = true
	}
}
