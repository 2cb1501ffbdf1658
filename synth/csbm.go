// Package synth generates synthetic node-classification graphs of any size
// for scaling studies: the contextual stochastic block model (cSBM) of
// Deshpande et al. 2018, in the multi-class form described at [CSBM], with
// exactly controlled edge homophily and average degree. A generated graph
// is deterministic by seed and is produced in chunks (edges and features
// from counter-based random streams), so a 10M-node, 100M-edge graph is
// written with [Generated.Write] holding about 12 bytes per node plus, for
// the splits, 4 bytes per node and split (919 MiB in all at 10M nodes and
// 10 splits).
package synth

import (
	"fmt"
	"math"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/graphio"
	"github.com/pcgcn/pcgcn/rng"
)

// CSBM are the parameters of a contextual stochastic block model with C
// classes:
//
//   - labels: a uniformly random balanced assignment of the n nodes to C
//     classes (class sizes ⌊n/C⌋ or ⌈n/C⌉);
//   - edges: m = round(n·D/2) undirected edges, each sampled independently:
//     a uniform node u, then with probability H a uniform other node of u's
//     class, else a uniform node of another class. The expected edge
//     homophily is exactly H and the average degree 2m/n ≈ D; no self-loop
//     is drawn, and repeated pairs (which the loaders merge) are rare for
//     sparse graphs: about D·C·(H² + (1-H)²/(C-1))/(2n) of the edges (102
//     of 10M at n = 10⁶, D = 20, C = 5, H = 0.2). This is the two-block
//     cSBM of Deshpande et al. and GPRGNN (Chien et al. 2021) generalised
//     to C blocks, with the edge homophily H as its graph parameter (for
//     C = 2, GPRGNN's c_in/c_out = H/(1-H));
//   - features: x_i = μ_{y_i} + z_i with z_i ~ N(0, I_F) and class means
//     μ_c of norm MU: mutually orthogonal (random orthonormal directions)
//     when F ≥ C, so two class means are MU·√2 apart; random unit
//     directions scaled by MU otherwise;
//   - splits: Splits.Num random stratified splits drawn by
//     graph.RandomSplits with the spec Splits (fractions of each class,
//     seed), exactly those 'pcgcn train --data DIR' draws with the same
//     --seed, --split-ratio and --num-splits for a graph without splits.
type CSBM struct {
	Nodes     int     // n ≥ 2C
	AvgDegree float64 // D ≥ 0
	Classes   int     // C ≥ 2
	Homophily float64 // H in [0, 1]: expected fraction of same-class edges
	Features  int     // F ≥ 1
	Signal    float64 // MU ≥ 0: norm of each class mean
	Seed      uint64
	// Splits are the random stratified splits to draw (Num 0: none).
	Splits graph.SplitSpec
}

// NumEdges returns m = round(n·D/2), the number of sampled edges.
func (c CSBM) NumEdges() int { return int(math.Round(float64(c.Nodes) * c.AvgDegree / 2)) }

// ParamError is a CSBM parameter outside its range, named as in the JSON
// of 'pcgcn generate csbm' (nodes, avg_degree, classes, homophily,
// features, signal; "splits" for the split spec).
type ParamError struct {
	Param string
	Value any
	// Want is the allowed range, as a phrase: "in [0, 1]".
	Want string
}

// Error reads "param must be WANT, got VALUE".
func (e *ParamError) Error() string {
	return fmt.Sprintf("%s must be %s, got %v", e.Param, e.Want, e.Value)
}

// Validate checks the parameters' ranges and returns a *ParamError naming
// the first bad one.
func (c CSBM) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case c.Classes < 2 || c.Classes > graphio.MaxClasses:
		return &ParamError{"classes", c.Classes, fmt.Sprintf("in [2, %d]", graphio.MaxClasses)}
	case c.Nodes < 2*c.Classes || c.Nodes > graphio.MaxNodes:
		return &ParamError{"nodes", c.Nodes, fmt.Sprintf("in [2·classes, %d] (at least 2 per class)", graphio.MaxNodes)}
	case !finite(c.AvgDegree) || c.AvgDegree < 0 || c.AvgDegree > float64(c.Nodes-1):
		return &ParamError{"avg_degree", c.AvgDegree, "a finite number in [0, nodes-1]"}
	case c.NumEdges() > math.MaxInt32/2:
		return &ParamError{"avg_degree", c.AvgDegree, fmt.Sprintf("at most %d edges in all (an int32-indexed adjacency), not %d", math.MaxInt32/2, c.NumEdges())}
	case !finite(c.Homophily) || c.Homophily < 0 || c.Homophily > 1:
		return &ParamError{"homophily", c.Homophily, "in [0, 1]"}
	case c.Features < 1:
		return &ParamError{"features", c.Features, "at least 1"}
	case !finite(c.Signal) || c.Signal < 0:
		return &ParamError{"signal", c.Signal, "a finite number ≥ 0"}
	case c.Splits.Num != 0:
		if err := c.Splits.Validate(); err != nil {
			return &ParamError{"splits", c.Splits, "a valid split spec (" + err.Error() + ")"}
		}
	}
	return nil
}

// Generated is a sampled cSBM: labels, class membership and class means are
// in memory; edges, features and splits are produced on demand, the same
// every time.
type Generated struct {
	cfg     CSBM
	labels  []int32
	members []int32 // nodes grouped by class
	start   []int   // class c is members[start[c]:start[c+1]]
	pos     []int32 // node i is members[start[labels[i]]+pos[i]]
	means   []float64
	edgeKey rng.Stream
	featKey rng.Stream
	splits  []graph.Split
}

// Generate draws the labels and class means of a cSBM; the edges and
// features follow from its seed.
func Generate(c CSBM) (*Generated, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	r := rng.New(c.Seed)
	g := &Generated{cfg: c, edgeKey: r.Stream(), featKey: r.Stream()}
	n, C := c.Nodes, c.Classes
	g.labels = make([]int32, n)
	for i := range g.labels {
		g.labels[i] = int32(i % C)
	}
	lr := r.Child()
	lr.Shuffle(n, func(i, j int) { g.labels[i], g.labels[j] = g.labels[j], g.labels[i] })
	g.start = make([]int, C+1)
	for _, y := range g.labels {
		g.start[y+1]++
	}
	for k := range C {
		g.start[k+1] += g.start[k]
	}
	g.members = make([]int32, n)
	g.pos = make([]int32, n)
	next := append([]int(nil), g.start[:C]...)
	for i, y := range g.labels {
		g.pos[i] = int32(next[y] - g.start[y])
		g.members[next[y]] = int32(i)
		next[y]++
	}
	if c.Splits.Num > 0 {
		var err error
		shape := &graph.Graph{N: n, Y: g.labels, NumClasses: C}
		if g.splits, err = graph.RandomSplits(shape, c.Splits); err != nil {
			return nil, err
		}
	}
	g.means = classMeans(r.Child(), C, c.Features, c.Signal)
	return g, nil
}

// Labels returns the node labels (shared, do not modify).
func (g *Generated) Labels() []int32 { return g.labels }

// ClassMean returns the mean feature vector of class c (a copy).
func (g *Generated) ClassMean(c int) []float64 {
	f := g.cfg.Features
	return append([]float64(nil), g.means[c*f:(c+1)*f]...)
}

// classMeans returns C mean vectors of dimension f and norm mu, row-major:
// Gram–Schmidt orthonormalised Gaussian directions when f ≥ C, else
// normalised Gaussian directions.
func classMeans(r *rng.RNG, C, f int, mu float64) []float64 {
	m := make([]float64, C*f)
	for c := range C {
		v := m[c*f : (c+1)*f]
		for {
			for j := range v {
				v[j] = r.NormFloat64()
			}
			if f >= C {
				for p := range c {
					q := m[p*f : (p+1)*f]
					d := dot(v, q)
					for j := range v {
						v[j] -= d * q[j]
					}
				}
			}
			if nrm := math.Sqrt(dot(v, v)); nrm > 1e-6 {
				for j := range v {
					v[j] /= nrm
				}
				break
			}
		}
	}
	for k := range m {
		m[k] *= mu
	}
	return m
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
