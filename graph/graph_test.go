package graph

import (
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/pcgcn/pcgcn/tensor"
)

// cacheGraph returns a 6-node graph whose links keep their direction.
func cacheGraph(t *testing.T) *Graph {
	t.Helper()
	g := handGraph(t, 6, []Edge{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {1, 4}}, true)
	g.Name = "cache"
	return g
}

// sameCSR reports whether two matrices hold the same pattern and bits.
func sameCSR(a, b *tensor.CSR) bool {
	return reflect.DeepEqual(a.RowPtr, b.RowPtr) && reflect.DeepEqual(a.ColIdx, b.ColIdx) &&
		reflect.DeepEqual(a.Val, b.Val) && a.Symmetric() == b.Symmetric()
}

// TestAHatCached checks that AHat and DirectedAHat equal GCNNorm and
// DirectedGCNNorm, are computed once, follow a replaced matrix, and are
// shared by a shallow copy only while it keeps the same matrix.
func TestAHatCached(t *testing.T) {
	g := cacheGraph(t)
	a := g.AHat()
	if !sameCSR(a, GCNNorm(g.Adj)) {
		t.Fatal("AHat differs from GCNNorm(Adj)")
	}
	if g.AHat() != a {
		t.Error("AHat computed twice")
	}
	d := g.DirectedAHat()
	if !sameCSR(d, DirectedGCNNorm(g.Out)) || g.DirectedAHat() != d {
		t.Error("DirectedAHat differs from DirectedGCNNorm(Out) or is computed twice")
	}

	cp := g.ShallowCopy()
	if cp.AHat() != a || cp.DirectedAHat() != d {
		t.Error("a shallow copy with the same matrices recomputes them")
	}
	other, err := UndirectedAdjacency(6, []Edge{{0, 5}})
	if err != nil {
		t.Fatal(err)
	}
	cp.Adj, cp.Out = other, nil
	if got := cp.AHat(); got == a || !sameCSR(got, GCNNorm(other)) {
		t.Error("a copy with another Adj answers with the old Â")
	}
	if cp.DirectedAHat() != nil {
		t.Error("DirectedAHat of a graph without Out is not nil")
	}
	if g.AHat() != a || g.DirectedAHat() != d {
		t.Error("changing the copy changed the original's cache")
	}
}

// TestAHatConcurrent calls AHat from several goroutines at once (run with
// -race): all get the same matrix.
func TestAHatConcurrent(t *testing.T) {
	g := cacheGraph(t)
	got := make([]*tensor.CSR, 8)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() {
			if i%2 == 0 {
				g.DirectedAHat()
			}
			got[i] = g.AHat()
		})
	}
	wg.Wait()
	for i, a := range got {
		if a != got[0] {
			t.Fatalf("goroutine %d got another Â", i)
		}
	}
}

// TestShallowCopyCopiesEveryField fills every exported field of a Graph and
// checks that ShallowCopy carries each over: a field added to Graph but not
// to ShallowCopy (or to this test) fails here.
func TestShallowCopyCopiesEveryField(t *testing.T) {
	g := cacheGraph(t)
	g.Files = []string{"a"}
	g.X = Features{Dense: tensor.NewDense(6, 1)}
	g.Y = []int32{0, 1, 0, 1, 0, 1}
	g.NumClasses = 2
	g.Splits = []Split{{Train: []int32{0}}}
	g.DrawnSplits = &SplitSpec{Num: 1}
	g.LabelIDs = []int32{7, 9}
	g.AdjBacking = &countPager{}
	cp := g.ShallowCopy()
	v, c := reflect.ValueOf(g).Elem(), reflect.ValueOf(cp).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		t.Run(f.Name, func(t *testing.T) {
			if v.Field(i).IsZero() {
				t.Fatalf("the test leaves %s zero: set it above", f.Name)
			}
			if !reflect.DeepEqual(v.Field(i).Interface(), c.Field(i).Interface()) {
				t.Errorf("ShallowCopy does not copy %s", f.Name)
			}
		})
	}
}

// countPager counts the calls of Release.
type countPager struct{ calls int }

func (p *countPager) Release([]byte) { p.calls++ }

func TestReleaseAdjCallsTheBacking(t *testing.T) {
	g := cacheGraph(t)
	g.ReleaseAdj() // no backing: nothing
	p := &countPager{}
	g.AdjBacking = p
	g.ReleaseAdj()
	if p.calls != 1 {
		t.Fatalf("%d releases, want 1", p.calls)
	}
}

// A graph whose adjacency is mapped computes Â into mapped scratch files:
// the values of GCNNorm, bit for bit, also after its pages are given back.
func TestMappedAHatIsGCNNorm(t *testing.T) {
	g := cacheGraph(t)
	want := GCNNorm(g.Adj)
	p := &countPager{}
	g.AdjBacking = p
	got := g.AHat()
	check := func(what string) {
		t.Helper()
		if !slices.Equal(got.RowPtr, want.RowPtr) || !slices.Equal(got.ColIdx, want.ColIdx) || !slices.Equal(got.Val, want.Val) || !got.Symmetric() {
			t.Fatalf("%s: mapped Â differs from GCNNorm", what)
		}
	}
	check("computed")
	g.ReleaseAdj()
	check("after ReleaseAdj")
	if p.calls != 1 || g.AHat() != got {
		t.Fatalf("%d releases of the adjacency; Â cached: %v", p.calls, g.AHat() == got)
	}
}
