package manifold

import (
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/rng"
)

func randomLayout(n int, seed uint64) []float64 {
	r := rng.New(seed)
	y := make([]float64, 2*n)
	for i := range y {
		y[i] = 5 * r.NormFloat64()
	}
	return y
}

func TestQuadTreeThetaZeroIsExact(t *testing.T) {
	y := randomLayout(60, 1)
	// Coincident points and a point on the bounding box edge.
	y[2], y[3] = y[0], y[1]
	y[4], y[5] = y[0], y[1]
	var tree quadTree
	tree.build(y)
	for i := 0; i < 60; i++ {
		fx, fy, z, _ := tree.repulsion(int32(i), 0, nil)
		ex, ey, ez := exactRepulsion(y, i)
		if !approxEq(fx, ex, 1e-12) || !approxEq(fy, ey, 1e-12) || !approxEq(z, ez, 1e-12) {
			t.Fatalf("point %d: tree (%v, %v, %v), exact (%v, %v, %v)", i, fx, fy, z, ex, ey, ez)
		}
	}
}

func TestQuadTreeHandCase(t *testing.T) {
	// Three points: (0,0), (1,0), (0,2). For point 0: w01 = 1/2, w02 = 1/5.
	y := []float64{0, 0, 1, 0, 0, 2}
	var tree quadTree
	tree.build(y)
	fx, fy, z, _ := tree.repulsion(0, 0, nil)
	wantFx := 0.25 * (0 - 1) // w01² · (0 − 1)
	wantFy := 0.04 * (0 - 2) // w02² · (0 − 2)
	wantZ := 0.5 + 0.2
	if !approxEq(fx, wantFx, 1e-15) || !approxEq(fy, wantFy, 1e-15) || !approxEq(z, wantZ, 1e-15) {
		t.Fatalf("got (%v, %v, %v), want (%v, %v, %v)", fx, fy, z, wantFx, wantFy, wantZ)
	}
}

func TestQuadTreeStructure(t *testing.T) {
	y := randomLayout(500, 2)
	var tree quadTree
	tree.build(y)
	root := tree.nodes[0]
	if root.count != 500 {
		t.Fatalf("root holds %d points", root.count)
	}
	seen := make([]bool, 500)
	for _, nd := range tree.nodes {
		if nd.child >= 0 {
			var c int32
			for q := int32(0); q < 4; q++ {
				c += tree.nodes[nd.child+q].count
			}
			if c != nd.count {
				t.Fatalf("children hold %d points, parent %d", c, nd.count)
			}
			continue
		}
		if nd.hi-nd.lo > 1 {
			t.Fatalf("leaf with %d distinct points", nd.hi-nd.lo)
		}
		for _, p := range tree.perm[nd.lo:nd.hi] {
			seen[p] = true
			x, yy := y[2*p], y[2*p+1]
			if x < nd.x0 || x > nd.x0+nd.side || yy < nd.y0 || yy > nd.y0+nd.side {
				t.Fatalf("point %d outside its leaf", p)
			}
		}
	}
	for p, ok := range seen {
		if !ok {
			t.Fatalf("point %d in no leaf", p)
		}
	}
}

func TestQuadTreeBarnesHutIsClose(t *testing.T) {
	y := randomLayout(2000, 3)
	var tree quadTree
	tree.build(y)
	// The force error is measured against the typical force size: a point
	// near the middle feels almost no net force, so its own relative error
	// says little.
	var errF, sizeF, worstZ float64
	for i := 0; i < 2000; i += 7 {
		fx, fy, z, _ := tree.repulsion(int32(i), 0.5, nil)
		ex, ey, ez := exactRepulsion(y, i)
		errF += math.Hypot(fx-ex, fy-ey)
		sizeF += math.Hypot(ex, ey)
		worstZ = max(worstZ, math.Abs(z-ez)/ez)
	}
	if errF/sizeF > 0.05 || worstZ > 0.05 {
		t.Fatalf("θ = 0.5: mean force error %.4f of mean force, worst z error %.4f", errF/sizeF, worstZ)
	}
	t.Logf("θ = 0.5: mean force error %.4f of mean force, worst z error %.4f", errF/sizeF, worstZ)
}
