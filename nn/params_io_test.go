package nn

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/rng"
	"github.com/pcgcn/pcgcn/tensor"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	src := CollectParams(NewLinear("a", 5, 3, true, rng.New(1)), NewLinear("b", 3, 2, false, rng.New(2)))
	var buf bytes.Buffer
	if err := SaveParams(&buf, src); err != nil {
		t.Fatal(err)
	}
	// header 9 + count 4 + per param 4+len(name)+8+4·len
	if want := 9 + 4 + (12 + 3 + 60) + (12 + 3 + 12) + (12 + 3 + 24); buf.Len() != want {
		t.Errorf("file is %d bytes, want %d", buf.Len(), want)
	}
	// load into differently initialised layers listed in another order
	dstA, dstB := NewLinear("a", 5, 3, true, rng.New(9)), NewLinear("b", 3, 2, false, rng.New(9))
	dst := CollectParams(dstB, dstA)
	if err := LoadParams(bytes.NewReader(buf.Bytes()), dst); err != nil {
		t.Fatal(err)
	}
	for _, p := range src {
		var q *autograd.Var
		for _, c := range dst {
			if c.Name == p.Name {
				q = c
			}
		}
		for i := range p.Value.Data {
			if p.Value.Data[i] != q.Value.Data[i] {
				t.Fatalf("%s[%d] = %g after load, want %g", p.Name, i, q.Value.Data[i], p.Value.Data[i])
			}
		}
	}
}

func TestLoadParamsErrors(t *testing.T) {
	src := NewLinear("a", 2, 2, true, rng.New(1)).Params()
	var buf bytes.Buffer
	if err := SaveParams(&buf, src); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	fresh := func() []*autograd.Var { return NewLinear("a", 2, 2, true, rng.New(5)).Params() }
	cases := []struct {
		name   string
		data   []byte
		params []*autograd.Var
		want   string
	}{
		{"magic", append([]byte("XXXXXXXX"), file[8:]...), fresh(), "not a parameter file"},
		{"version", append(append([]byte(paramsMagic), 9), file[9:]...), fresh(), "version"},
		{"truncated", file[:len(file)-3], fresh(), "truncated"},
		{"shape", file, NewLinear("a", 2, 3, true, rng.New(5)).Params(), "is 2×2 in the file"},
		{"missing", file, CollectParams(NewLinear("a", 2, 2, true, rng.New(5)), NewLinear("c", 1, 1, false, rng.New(5))), "holds 2 parameters, want 3"},
		{"unknown", file, NewLinear("z", 2, 2, true, rng.New(5)).Params(), "unknown parameter"},
		{"dup names", file, []*autograd.Var{autograd.NewParam("a.W", tensor.NewDense(2, 2)), autograd.NewParam("a.W", tensor.NewDense(1, 2))}, "two parameters"},
	}
	for _, c := range cases {
		before := c.params[0].Value.Clone()
		err := LoadParams(bytes.NewReader(c.data), c.params)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		for i := range before.Data {
			if before.Data[i] != c.params[0].Value.Data[i] {
				t.Errorf("%s: failed load modified the parameters", c.name)
				break
			}
		}
	}
	if err := SaveParams(&buf, []*autograd.Var{autograd.NewParam("", tensor.NewDense(1, 1))}); err == nil {
		t.Errorf("SaveParams accepted an unnamed parameter")
	}
}
