package synth

import "math"

// featureRows is the number of feature rows emitted at a time.
const featureRows = 4096

// normalPair returns the two standard normal values of pair p of the
// feature stream (Box–Muller on two of its uniforms).
func (g *Generated) normalPair(p uint64) (float64, float64) {
	u1 := float64(g.featKey.Uint64At(2*p)>>11+1) * (1.0 / (1 << 53)) // (0, 1]
	u2 := float64(g.featKey.Uint64At(2*p+1)>>11) * (1.0 / (1 << 53))
	r := math.Sqrt(-2 * math.Log(u1))
	s, c := math.Sincos(2 * math.Pi * u2)
	return r * c, r * s
}

// Features emits the n×F row-major features in chunks of whole rows:
// entry (i, j) is the class mean μ_{y_i}[j] plus the normal value number
// i·F+j of the feature stream, rounded to float32.
func (g *Generated) Features(emit func([]float32) error) error {
	n, f := g.cfg.Nodes, g.cfg.Features
	buf := make([]float32, min(n, featureRows)*f)
	for r0 := 0; r0 < n; r0 += featureRows {
		rows := min(featureRows, n-r0)
		out := buf[:rows*f]
		pp, pz := ^uint64(0), [2]float64{}
		for i := range rows {
			mu := g.means[int(g.labels[r0+i])*f:][:f]
			base := uint64(r0+i) * uint64(f)
			for j := range mu {
				e := base + uint64(j)
				if p := e >> 1; p != pp {
					pz[0], pz[1] = g.normalPair(p)
					pp = p
				}
				out[i*f+j] = float32(mu[j] + pz[e&1])
			}
		}
		if err := emit(out); err != nil {
			return err
		}
	}
	return nil
}
