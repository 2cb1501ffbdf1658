// Package graph holds the in-memory form of a node-classification dataset
// ([Graph]): an undirected adjacency, node features, labels and the
// train/validation/test splits, plus what is derived from them without a model
// (the GCN-normalised adjacency, homophily and other statistics).
package graph

import (
	"fmt"
	"unsafe"

	"github.com/pcgcn/pcgcn/tensor"
)

// Graph is a node-classification dataset as every loader returns it.
type Graph struct {
	// Name is the registry name ("cora") or the user's path.
	Name string
	// Files lists the files it was read from.
	Files []string
	// N is the number of nodes.
	N int
	// Adj is the undirected adjacency: symmetric, values 1, no self-loops, no
	// duplicate entries, marked symmetric.
	Adj *tensor.CSR
	// Out is the directed adjacency as the source lists its edges (row i:
	// the nodes i links to), values 1, no self-loops, no duplicates, not
	// marked symmetric; Adj is its symmetrisation. It is nil when the source
	// stores edges undirected (the npz and Planetoid files). Models use Adj;
	// GGCN can use Out, as its authors' loader does.
	Out *tensor.CSR
	// X are the node features (N rows).
	X Features
	// Y are the labels in [0, NumClasses).
	Y []int32
	// NumClasses is the number of classes.
	NumClasses int
	// Splits are the standard train/validation/test splits (10 for the
	// paper's datasets); empty when the source has none.
	Splits []Split
	// DrawnSplits describes how Splits were drawn when they are random
	// stratified splits (RandomSplits) of a graph whose source has none;
	// nil when the source gave them.
	DrawnSplits *SplitSpec
	// LabelIDs holds, when the labels were remapped to dense ids
	// (RemapLabels), the original label of each class; nil otherwise.
	LabelIDs []int32

	// AdjBacking, when non-nil, gives back the pages of Adj's arrays, which
	// are then memory-mapped files (graphio.ReadCSR): ReleaseAdj calls it, so
	// that a sampler reading rows here and there keeps resident only what it
	// read since.
	AdjBacking Pager

	// norms caches the normalised adjacencies (AHat, DirectedAHat). It holds
	// a lock: derive a graph with ShallowCopy, never by copying the struct.
	norms normCache
}

// ShallowCopy returns a new Graph with g's fields, sharing (not copying) its
// slices and matrices, and sharing its cached normalisations for as long as
// the copy keeps the same Adj and Out. It is how a graph with other splits
// or other links is derived: a Graph holds a lock and must not be copied by
// value.
func (g *Graph) ShallowCopy() *Graph {
	cp := &Graph{
		Name: g.Name, Files: g.Files, N: g.N, Adj: g.Adj, Out: g.Out, X: g.X, Y: g.Y,
		NumClasses: g.NumClasses, Splits: g.Splits, DrawnSplits: g.DrawnSplits, LabelIDs: g.LabelIDs,
		AdjBacking: g.AdjBacking,
	}
	g.norms.mu.Lock()
	defer g.norms.mu.Unlock()
	cp.norms.adj, cp.norms.out = g.norms.adj, g.norms.out
	return cp
}

// ReleaseAdj gives the pages of a memory-mapped adjacency, and of its Â
// when that is mapped too (see AHat), back to the kernel (see AdjBacking);
// otherwise it does nothing.
func (g *Graph) ReleaseAdj() {
	if g.AdjBacking != nil {
		g.AdjBacking.Release(nil)
	}
	g.norms.mu.Lock()
	defer g.norms.mu.Unlock()
	if g.norms.pages != nil {
		g.norms.pages.Release(nil)
	}
}

// Split is one train/validation/test partition as sorted node indices.
type Split struct {
	Train, Val, Test []int32
}

// Features are node features stored dense or sparse (exactly one is non-nil).
type Features struct {
	Dense  *tensor.Dense
	Sparse *tensor.CSR
	// Backing, when non-nil, is the read-only memory-mapped file whose bytes
	// Dense's values are (graphio maps a large features.npy so): reading a
	// row pages it in from the file, and ReleaseRows gives the pages back,
	// so that a reader going through the rows a batch at a time keeps only
	// a batch resident. Writing to Dense faults.
	Backing Pager
}

// Pager gives pages of a memory-mapped file back to the kernel
// (internal/mmap.File): the content stays, the resident memory goes.
type Pager interface {
	Release(b []byte)
}

// ReleaseRows gives the pages of rows [lo, hi) of memory-mapped dense
// features back to the kernel (see Backing); otherwise it does nothing.
func (f Features) ReleaseRows(lo, hi int) {
	if f.Backing == nil || f.Dense == nil || lo >= hi {
		return
	}
	rows := f.Dense.Data[lo*f.Dense.Cols : hi*f.Dense.Cols]
	f.Backing.Release(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(rows))), 4*len(rows)))
}

// SparseThreshold is the density below which NewFeatures stores features as
// CSR: below about 10% non-zeros a sparse product beats a dense one.
const SparseThreshold = 0.10

// NewFeatures stores d sparse when its density is below SparseThreshold.
func NewFeatures(d *tensor.Dense) Features {
	if d.Density() < SparseThreshold {
		return Features{Sparse: tensor.DenseToCSR(d)}
	}
	return Features{Dense: d}
}

// Rows returns the number of feature rows.
func (f Features) Rows() int {
	if f.Sparse != nil {
		return f.Sparse.Rows
	}
	return f.Dense.Rows
}

// Cols returns the feature dimension.
func (f Features) Cols() int {
	if f.Sparse != nil {
		return f.Sparse.Cols
	}
	return f.Dense.Cols
}

// Density returns the fraction of non-zero feature values.
func (f Features) Density() float64 {
	if f.Sparse != nil {
		return f.Sparse.Density()
	}
	return f.Dense.Density()
}

// ToDense returns the features as a dense matrix (shared when already dense).
func (f Features) ToDense() *tensor.Dense {
	if f.Sparse != nil {
		return f.Sparse.ToDense()
	}
	return f.Dense
}

// RowNormalized returns a copy with each row divided by its sum, keeping the
// storage kind. Rows whose sum is not positive are left as they are: the
// benchmark features are non-negative, and dividing a row of a user's signed
// features by a negative or zero sum would flip or blow it up.
func (f Features) RowNormalized() Features {
	if f.Sparse != nil {
		s := f.Sparse
		v := make([]float32, len(s.Val))
		for i := 0; i < s.Rows; i++ {
			var sum float64
			for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
				sum += float64(s.Val[k])
			}
			for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
				if sum > 0 {
					v[k] = float32(float64(s.Val[k]) / sum)
				} else {
					v[k] = s.Val[k]
				}
			}
		}
		return Features{Sparse: s.WithValues(v)}
	}
	d := f.Dense.Clone()
	for i := 0; i < d.Rows; i++ {
		r := d.Row(i)
		var sum float64
		for _, x := range r {
			sum += float64(x)
		}
		if sum > 0 {
			for j := range r {
				r[j] = float32(float64(r[j]) / sum)
			}
		}
	}
	return Features{Dense: d}
}

// Edge is an undirected edge between two node indices.
type Edge [2]int32

// NumEdges returns the number of undirected edges (each counted once).
func (g *Graph) NumEdges() int { return g.Adj.NNZ() / 2 }

// Validate checks the invariants every loader promises and returns an error
// naming the first broken one.
func (g *Graph) Validate() error {
	if g.N <= 0 {
		return fmt.Errorf("graph %s: no nodes", g.Name)
	}
	if g.Adj == nil || g.Adj.Rows != g.N || g.Adj.Cols != g.N {
		return fmt.Errorf("graph %s: adjacency is not %d×%d", g.Name, g.N, g.N)
	}
	if g.Out != nil {
		if g.Out.Rows != g.N || g.Out.Cols != g.N {
			return fmt.Errorf("graph %s: directed adjacency is not %d×%d", g.Name, g.N, g.N)
		}
		if g.Out.Symmetric() {
			return fmt.Errorf("graph %s: directed adjacency is marked symmetric", g.Name)
		}
	}
	if g.X.Dense == nil && g.X.Sparse == nil {
		return fmt.Errorf("graph %s: no features", g.Name)
	}
	if g.X.Rows() != g.N {
		return fmt.Errorf("graph %s: %d feature rows for %d nodes", g.Name, g.X.Rows(), g.N)
	}
	vals := g.X.Sparse
	var data []float32
	if vals != nil {
		data = vals.Val
	} else {
		data = g.X.Dense.Data
	}
	// a block of rows at a time, whose pages mapped features give back
	block := len(data)
	if g.X.Backing != nil {
		block = max(1, (4<<20)/(4*g.X.Dense.Cols)) * g.X.Dense.Cols
	}
	for lo := 0; lo < len(data); lo += block {
		hi := min(len(data), lo+block)
		for k, v := range data[lo:hi] {
			if v-v != 0 { // NaN or ±Inf: x-x is 0 for every finite x
				return fmt.Errorf("graph %s: feature value %d is %v", g.Name, lo+k, v)
			}
		}
		if g.X.Backing != nil {
			g.X.ReleaseRows(lo/g.X.Dense.Cols, hi/g.X.Dense.Cols)
		}
	}
	if len(g.Y) != g.N {
		return fmt.Errorf("graph %s: %d labels for %d nodes", g.Name, len(g.Y), g.N)
	}
	if g.NumClasses < 1 {
		return fmt.Errorf("graph %s: %d classes", g.Name, g.NumClasses)
	}
	for i, y := range g.Y {
		if y < 0 || int(y) >= g.NumClasses {
			return fmt.Errorf("graph %s: node %d has label %d outside [0, %d)", g.Name, i, y, g.NumClasses)
		}
	}
	for s, sp := range g.Splits {
		for _, part := range []struct {
			name string
			idx  []int32
		}{{"train", sp.Train}, {"val", sp.Val}, {"test", sp.Test}} {
			if len(part.idx) == 0 {
				return fmt.Errorf("graph %s: split %d has an empty %s set", g.Name, s, part.name)
			}
			for _, i := range part.idx {
				if i < 0 || int(i) >= g.N {
					return fmt.Errorf("graph %s: split %d %s set names node %d of %d", g.Name, s, part.name, i, g.N)
				}
			}
		}
	}
	return nil
}

// MaskToIndex returns the indices where mask is true.
func MaskToIndex(mask []bool) []int32 {
	var idx []int32
	for i, m := range mask {
		if m {
			idx = append(idx, int32(i))
		}
	}
	return idx
}
