package search

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
)

// ID is a point's stable identity: a hash of its option values, the same for the same values
// whatever the seed or the order in which they were drawn.
type ID string

// Point is one trial's setting: each dimension's value formatted for --set, and its ID.
type Point struct {
	// ID is PointID(Values).
	ID ID
	// Values maps each dimension's name to its value.
	Values map[string]string
}

// Sets returns the point's values as --set arguments, "name=value", sorted by name.
func (p Point) Sets() []string {
	out := make([]string, 0, len(p.Values))
	for k, v := range p.Values {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// PointID hashes the values (sorted by name, as name=value lines) with SHA-256 and keeps the
// first 16 hexadecimal digits.
func PointID(values map[string]string) ID {
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, values[k])
	}
	return ID(hex.EncodeToString(h.Sum(nil))[:16])
}

// Sample returns n distinct points of the space, drawn from a Halton sequence scrambled by the
// seed (a random permutation of the digits for every dimension and digit position, with a
// random starting index): the same seed gives the same points in the same order, another seed
// other points. Integer and choice dimensions can map two draws to one point; such repeats are
// skipped, and Sample fails when the space seems to hold fewer than n points.
func (s *Space) Sample(seed uint64, n int) ([]Point, error) {
	if n < 0 {
		return nil, fmt.Errorf("search: %d points asked for", n)
	}
	h := newHalton(len(s.dims), seed)
	points := make([]Point, 0, n)
	seen := make(map[ID]bool, n)
	u := make([]float64, len(s.dims))
	limit := 100*n + 1000
	for draw := 0; len(points) < n; draw++ {
		if draw >= limit {
			return points, fmt.Errorf("search: only %d distinct points in %d draws of the space %s; %d asked for",
				len(points), draw, s, n)
		}
		h.next(u)
		vals := make(map[string]string, len(s.dims))
		for j, d := range s.dims {
			vals[d.Name] = d.Value(u[j])
		}
		id := PointID(vals)
		if seen[id] {
			continue
		}
		seen[id] = true
		points = append(points, Point{ID: id, Values: vals})
	}
	return points, nil
}

// String gives the space's declarations, space-separated.
func (s *Space) String() string {
	parts := make([]string, len(s.dims))
	for i, d := range s.dims {
		parts[i] = d.String()
	}
	return strings.Join(parts, " ")
}

// halton is a scrambled Halton sequence: coordinate j is the radical inverse in the j-th prime
// base, each digit position passed through its own random permutation of the digits.
type halton struct {
	bases []uint64
	perms [][][]uint64 // perms[j][k]: permutation of digit position k in dimension j
	index uint64
}

func newHalton(dims int, seed uint64) *halton {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	h := &halton{bases: primes(dims), perms: make([][][]uint64, dims)}
	for j, b := range h.bases {
		// digits enough to resolve 2^-53
		nd := int(math.Ceil(53/math.Log2(float64(b)))) + 1
		h.perms[j] = make([][]uint64, nd)
		for k := range h.perms[j] {
			p := make([]uint64, b)
			for i := range p {
				p[i] = uint64(i)
			}
			for i := len(p) - 1; i > 0; i-- {
				k := below(r, uint64(i+1))
				p[i], p[k] = p[k], p[i]
			}
			h.perms[j][k] = p
		}
	}
	h.index = below(r, 1<<20)
	return h
}

// below draws uniformly from [0, n) by rejection from PCG's 64-bit outputs: written out, rather
// than rand.Shuffle or Uint64N, so that a seed's points rest only on PCG-DXSM's specified output
// and not on how a Go release draws bounded numbers.
func below(r *rand.Rand, n uint64) uint64 {
	limit := math.MaxUint64 - math.MaxUint64%n
	for {
		if x := r.Uint64(); x < limit {
			return x % n
		}
	}
}

// next writes the next point's coordinates, each in [0, 1), into u.
func (h *halton) next(u []float64) {
	for j, b := range h.bases {
		x, f := h.index, 1.0/float64(b)
		v := 0.0
		for _, p := range h.perms[j] {
			v += float64(p[x%b]) * f
			x /= b
			f /= float64(b)
		}
		u[j] = math.Min(v, math.Nextafter(1, 0))
	}
	h.index++
}

// primes returns the first n primes.
func primes(n int) []uint64 {
	out := make([]uint64, 0, n)
	for c := uint64(2); len(out) < n; c++ {
		prime := true
		for _, p := range out {
			if p*p > c {
				break
			}
			if c%p == 0 {
				prime = false
				break
			}
		}
		if prime {
			out = append(out, c)
		}
	}
	return out
}
