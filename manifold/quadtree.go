package manifold

// maxTreeDepth bounds the quadtree's depth; points that still share a cell
// there (in practice: coincident points) stay together in one leaf.
const maxTreeDepth = 48

// quadTree is a Barnes–Hut tree over 2-D points. Every node covers a square;
// a leaf holds the points perm[lo:hi]; an inner node has four children
// starting at child, in the order (x<mid, y<mid), (x≥mid, y<mid),
// (x<mid, y≥mid), (x≥mid, y≥mid).
type quadTree struct {
	nodes   []quadNode
	perm    []int32
	scratch []int32
	y       []float64 // the points, row-major n×2
}

// quadNode is one cell of a quadTree.
type quadNode struct {
	x0, y0, side float64 // the square [x0, x0+side] × [y0, y0+side]
	cx, cy       float64 // centre of mass
	count        int32
	child        int32 // first of four children, or −1 for a leaf
	lo, hi       int32 // leaf points perm[lo:hi]
}

// build (re)builds t over y (row-major n×2), reusing t's storage. It runs on
// one goroutine, so the tree depends only on y.
func (t *quadTree) build(y []float64) {
	n := len(y) / 2
	t.y = y
	t.nodes = t.nodes[:0]
	if cap(t.perm) < n {
		t.perm = make([]int32, n)
		t.scratch = make([]int32, n)
	}
	t.perm, t.scratch = t.perm[:n], t.scratch[:n]
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	if n == 0 {
		return
	}
	minX, minY, maxX, maxY := y[0], y[1], y[0], y[1]
	for i := 1; i < n; i++ {
		minX, maxX = min(minX, y[2*i]), max(maxX, y[2*i])
		minY, maxY = min(minY, y[2*i+1]), max(maxY, y[2*i+1])
	}
	side := max(maxX-minX, maxY-minY)
	t.nodes = append(t.nodes, quadNode{})
	t.split(0, minX, minY, side, 0, int32(n), 0)
}

// split fills node id, which covers the given square and points perm[lo:hi].
func (t *quadTree) split(id int32, x0, y0, side float64, lo, hi int32, depth int) {
	var sx, sy float64
	for _, p := range t.perm[lo:hi] {
		sx += t.y[2*p]
		sy += t.y[2*p+1]
	}
	cnt := hi - lo
	t.nodes[id] = quadNode{
		x0: x0, y0: y0, side: side,
		cx: sx / float64(cnt), cy: sy / float64(cnt),
		count: cnt, child: -1, lo: lo, hi: hi,
	}
	if cnt <= 1 || depth >= maxTreeDepth || side == 0 {
		return
	}
	// Stable partition of perm[lo:hi] into the four quadrants.
	h := side / 2
	mx, my := x0+h, y0+h
	var start [5]int32
	quadrant := func(p int32) int {
		q := 0
		if t.y[2*p] >= mx {
			q++
		}
		if t.y[2*p+1] >= my {
			q += 2
		}
		return q
	}
	for _, p := range t.perm[lo:hi] {
		start[quadrant(p)+1]++
	}
	start[0] = lo
	for q := 1; q <= 4; q++ {
		start[q] += start[q-1]
	}
	next := start
	for _, p := range t.perm[lo:hi] {
		q := quadrant(p)
		t.scratch[next[q]] = p
		next[q]++
	}
	copy(t.perm[lo:hi], t.scratch[lo:hi])
	child := int32(len(t.nodes))
	t.nodes[id].child = child
	t.nodes = append(t.nodes, quadNode{}, quadNode{}, quadNode{}, quadNode{})
	for q := int32(0); q < 4; q++ {
		cx, cy := x0, y0
		if q&1 != 0 {
			cx += h
		}
		if q&2 != 0 {
			cy += h
		}
		if start[q+1] > start[q] {
			t.split(child+q, cx, cy, h, start[q], start[q+1], depth+1)
		} else {
			t.nodes[child+q] = quadNode{x0: cx, y0: cy, side: h, child: -1, lo: start[q], hi: start[q]}
		}
	}
}

// repulsion returns, for point i at (xi, yi), the unnormalised repulsive
// force Σ_j w_ij² (y_i − y_j) and the kernel sum z_i = Σ_j w_ij over j ≠ i,
// with w_ij = 1 / (1 + |y_i − y_j|²). A cell that does not contain the point
// and whose side is below theta times its distance to the point counts as
// all its points sitting at its centre of mass; theta = 0 sums every pair
// exactly. stack is scratch space, returned for reuse. The terms are added in
// a fixed depth-first order.
func (t *quadTree) repulsion(i int32, theta float64, stack []int32) (fx, fy, z float64, _ []int32) {
	if len(t.nodes) == 0 {
		return 0, 0, 0, stack
	}
	xi, yi := t.y[2*i], t.y[2*i+1]
	theta2 := theta * theta
	stack = append(stack[:0], 0)
	for len(stack) > 0 {
		nd := &t.nodes[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if nd.count == 0 {
			continue
		}
		if nd.child < 0 {
			for _, p := range t.perm[nd.lo:nd.hi] {
				if p == i {
					continue
				}
				dx, dy := xi-t.y[2*p], yi-t.y[2*p+1]
				w := 1 / (1 + dx*dx + dy*dy)
				z += w
				fx += w * w * dx
				fy += w * w * dy
			}
			continue
		}
		dx, dy := xi-nd.cx, yi-nd.cy
		d2 := dx*dx + dy*dy
		inside := xi >= nd.x0 && xi <= nd.x0+nd.side && yi >= nd.y0 && yi <= nd.y0+nd.side
		if !inside && nd.side*nd.side < theta2*d2 {
			w := 1 / (1 + d2)
			c := float64(nd.count)
			z += c * w
			fx += c * w * w * dx
			fy += c * w * w * dy
			continue
		}
		// Push children in reverse so they are visited in order 0..3.
		for q := int32(3); q >= 0; q-- {
			stack = append(stack, nd.child+q)
		}
	}
	return fx, fy, z, stack
}
