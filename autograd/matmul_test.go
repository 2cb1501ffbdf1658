package autograd

import (
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

func TestMatMulGrad(t *testing.T) {
	for _, s := range [][3]int{{1, 1, 1}, {3, 4, 2}, {7, 5, 9}} {
		a, b := randDense(s[0], s[1], 1), randDense(s[1], s[2], 2)
		_, err := GradCheck(func(tp *Tape, p []*Var) *Var { return tp.MatMul(p[0], p[1]) },
			[]*tensor.Dense{a, b}, 1e-2, 1e-3, 1e-2)
		if err != nil {
			t.Errorf("%v: %v", s, err)
		}
	}
}

func TestBinaryBroadcastGrad(t *testing.T) {
	a := randDense(5, 3, 1)
	for _, bs := range [][2]int{{5, 3}, {1, 3}, {5, 1}, {1, 1}} {
		b := randDense(bs[0], bs[1], 3)
		for name, op := range map[string]func(tp *Tape, x, y *Var) *Var{
			"add": (*Tape).Add, "sub": (*Tape).Sub, "mul": (*Tape).Mul,
		} {
			_, err := GradCheck(func(tp *Tape, p []*Var) *Var { return op(tp, p[0], p[1]) },
				[]*tensor.Dense{a, b}, 1e-2, 1e-3, 1e-2)
			if err != nil {
				t.Errorf("%s %v: %v", name, bs, err)
			}
		}
	}
}

func randDense(r, c int, seed uint64) *tensor.Dense {
	return randomLike(tensor.NewDense(r, c), seed)
}
