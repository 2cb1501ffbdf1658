package manifold

import (
	"fmt"
	"math"
)

// Options configure [TSNE]. The zero value of every field but Seed, Threads
// and PCAInit selects the default written beside it.
type Options struct {
	// Perplexity is the effective number of neighbours of each point
	// (default 30). Each point's affinities use its 3·Perplexity nearest
	// neighbours (at most n−1), and Perplexity must stay below that count.
	Perplexity float64
	// Iterations is the number of gradient steps (default 1000).
	Iterations int
	// Theta is the Barnes–Hut accuracy: a quadtree cell is summarised by its
	// centre of mass when its side is below Theta times its distance to the
	// point (default 0.5). A negative value means 0: every pair is summed
	// exactly, which costs O(n²) per step.
	Theta float64
	// LearningRate is the step size; 0 selects max(n/12, 200).
	LearningRate float64
	// PCADims is the number of principal components the input is reduced to
	// when it has more columns (default 50); a negative value keeps the input
	// as it is.
	PCADims int
	// Exaggeration multiplies P during the first ExaggerationIters steps
	// (default 12).
	Exaggeration float64
	// ExaggerationIters is the length of the early-exaggeration phase, during
	// which the momentum is 0.5 instead of 0.8 (default 250, capped at
	// Iterations).
	ExaggerationIters int
	// PCAInit starts from the first two principal components of the (reduced)
	// input scaled to standard deviation 1e-4, as scikit-learn ≥ 1.2 and
	// openTSNE do, instead of the default Gaussian layout with standard
	// deviation 1e-4 drawn from Seed. With PCAInit the result depends on Seed
	// only through the randomized PCA used for wide inputs.
	PCAInit bool
	// Seed seeds every random choice.
	Seed uint64
	// Threads is the number of goroutines; 0 or less means GOMAXPROCS. The
	// result does not depend on it.
	Threads int
}

// Defaults of [Options].
const (
	DefaultPerplexity        = 30
	DefaultIterations        = 1000
	DefaultTheta             = 0.5
	DefaultPCADims           = 50
	DefaultExaggeration      = 12
	DefaultExaggerationIters = 250
)

// settings are Options resolved for n points.
type settings struct {
	perplexity   float64
	k            int // neighbours per point
	iterations   int
	theta        float64
	learningRate float64
	pcaDims      int // 0: no PCA
	exaggeration float64
	exagIters    int
	pcaInit      bool
	seed         uint64
	threads      int
}

// defaultOrOff reads a setting whose zero value means its default and a
// negative value means off (0).
func defaultOrOff[T int | float64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// resolve fills in defaults for n points and checks the values.
func (o Options) resolve(n int) (settings, error) {
	s := settings{
		perplexity:   o.Perplexity,
		iterations:   o.Iterations,
		theta:        o.Theta,
		learningRate: o.LearningRate,
		pcaDims:      o.PCADims,
		exaggeration: o.Exaggeration,
		exagIters:    o.ExaggerationIters,
		pcaInit:      o.PCAInit,
		seed:         o.Seed,
		threads:      o.Threads,
	}
	if s.perplexity == 0 {
		s.perplexity = DefaultPerplexity
	}
	if s.iterations == 0 {
		s.iterations = DefaultIterations
	}
	s.theta = defaultOrOff(s.theta, DefaultTheta)
	if s.learningRate == 0 {
		s.learningRate = math.Max(float64(n)/12, 200)
	}
	s.pcaDims = defaultOrOff(s.pcaDims, DefaultPCADims)
	if s.exaggeration == 0 {
		s.exaggeration = DefaultExaggeration
	}
	if s.exagIters == 0 {
		s.exagIters = DefaultExaggerationIters
	}
	s.exagIters = min(s.exagIters, s.iterations)
	bad := func(name string, v any) (settings, error) {
		return settings{}, fmt.Errorf("embed: TSNE: invalid %s %v", name, v)
	}
	switch {
	case !(s.perplexity > 0) || math.IsInf(s.perplexity, 0):
		return bad("Perplexity", o.Perplexity)
	case s.iterations < 0:
		return bad("Iterations", o.Iterations)
	case math.IsNaN(s.theta) || math.IsInf(s.theta, 0):
		return bad("Theta", o.Theta)
	case !(s.learningRate > 0) || math.IsInf(s.learningRate, 0):
		return bad("LearningRate", o.LearningRate)
	case !(s.exaggeration > 0) || math.IsInf(s.exaggeration, 0):
		return bad("Exaggeration", o.Exaggeration)
	case s.exagIters < 0:
		return bad("ExaggerationIters", o.ExaggerationIters)
	}
	s.k = min(n-1, int(3*s.perplexity))
	if float64(s.k) <= s.perplexity {
		return settings{}, fmt.Errorf("embed: TSNE: perplexity %g needs more than %d points", s.perplexity, int(s.perplexity)+1)
	}
	return s, nil
}
