package tensor

import "github.com/pcgcn/pcgcn/internal/simd"

// The wide SpMM in column panels. A product Â·H with H wide (hundreds of
// columns) and Â dense enough that each row of H is read many times (88
// times on Tolokers) is bound by fetching H's rows: H (24 MB on Tolokers at
// 512 columns) lives in L3, and its rows, 2 KiB apart, fall on few L2 sets
// even when only a panel of their columns is read (session 49 measured
// panels read in place: no gain). Copying a panel of spmmPanelCols columns
// into a contiguous buffer first (3 MB on Tolokers) and running the row
// kernel over it keeps the rows read in L2: at 512 columns, one thread,
// Â·H took 38 ms against 94 on Tolokers and 13 against 30 on Squirrel
// (BENCHMARKS.md, "The wide sparse products in packed column panels").
// Every element of c still gets the same operations in the same order (the
// row kernel's per-element chain over the row's entries), so the bits are
// those of the unpanelled product.

// spmmPanelCols is the width of a packed panel: 64 columns, four ZMM
// vectors of the row kernel; 32 measured the same on Tolokers and 128
// lost most of the gain.
const spmmPanelCols = 64

// spmmPanelMinReuse is the least average number of reads of each row of b
// (stored entries over b's rows) for which packing pays: Tolokers (88),
// Squirrel (76), squirrel-filtered (42), Chameleon (28) and
// chameleon-filtered (20) gain 1.3–2.5×; Minesweeper (9), Actor (7), Cora
// (5) and CiteSeer (4) lose up to 2×: the copy costs more than the reuse
// saves.
const spmmPanelMinReuse = 16

// spmmPanelMinBytes is the least size of b for which packing pays: a
// smaller b stays in L2 read in place.
const spmmPanelMinBytes = 1 << 20

// usePanels reports whether spmm runs in packed column panels: a wide b
// (at least two panels) that does not fit L2 and whose rows are each read
// at least spmmPanelMinReuse times, on the vector kernels, with a beta the
// row kernel applies itself (0 or 1).
func usePanels(nnz int, b *Dense, alpha, beta float32) bool {
	return simd.Enabled() && alpha != 0 && (beta == 0 || beta == 1) &&
		b.Cols >= 2*spmmPanelCols && b.Rows > 0 && b.Rows*b.Cols*4 >= spmmPanelMinBytes &&
		nnz >= spmmPanelMinReuse*b.Rows
}

// spmmPanels computes spmm's product panel by panel into kd.c, packing
// each panel of b into buf (b.Rows·spmmPanelCols floats) first; the rows
// of a panel are shared among e's goroutines as spmm's are.
//
// A product through a permutation of the values (SpMMT of a matrix that is
// not symmetric: GraphSAGE's mean aggregation, whose transposed entry k is
// val[perm[k]]) first gathers them in the transposed order into the rest
// of buf (the matrix's entries), once, instead of once a panel: the
// gather's reads fall all over the values (2 MB on Tolokers), and eight
// panels of them took three quarters of the product's time there. The row
// kernel then reads the same values in order, with the same bits.
func spmmPanels(e Exec, kd kernel, buf []float32) {
	b := kd.b
	n, rows := b.Cols, len(kd.rowPtr)-1
	if kd.perm != nil {
		tv := buf[b.Rows*spmmPanelCols:][:len(kd.perm)]
		for k, p := range kd.perm {
			tv[k] = kd.val[p]
		}
		kd.val, kd.perm = tv, nil
	}
	serial := e.Serial(rows, int(kd.rowPtr[rows])*spmmPanelCols)
	for c0 := 0; c0 < n; c0 += spmmPanelCols {
		w := min(spmmPanelCols, n-c0)
		panel := buf[:b.Rows*w]
		for j := range b.Rows {
			copy(panel[j*w:(j+1)*w], b.Data[j*n+c0:j*n+c0+w])
		}
		kd.out, kd.k0, kd.k = panel, c0, w
		if serial {
			spmmPanelRows(&kd, 0, rows)
		} else {
			e.runKernel(rows, kd.rowPtr, kd, spmmPanelRows)
		}
	}
}

// spmmPanelRows computes rows [lo, hi) of one panel: columns [k0, k0+k) of
// c from the packed panel in out (k columns a row).
func spmmPanelRows(kd *kernel, lo, hi int) {
	n := kd.c.Cols
	simd.SpMMRows(kd.alpha, kd.rowPtr, kd.colIdx, kd.val, kd.perm, kd.out, kd.k, kd.c.Data[kd.k0:], n, kd.k, lo, hi, kd.beta == 0)
}
