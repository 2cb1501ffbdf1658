//go:build !purego

package simd

import "fmt"

// The layer-normalisation sums below take four rows of one length n (they
// may be the same row more than once) and sum each in float64, from +0, in
// column order, with the operations and first operands of package
// autograd's one-row Go loops (layerNormRows and layerNormBackRows) at the
// default GOAMD64 level: the four rows are the four lanes of one vector, so
// every row gets its loop's bits whichever lane it falls in.

// lnRows checks that every row has n floats.
func lnRows(name string, n int, rows ...[]float32) {
	for _, r := range rows {
		if len(r) < n {
			panic(fmt.Sprintf("simd: %s of rows of %d floats over a row of %d", name, n, len(r)))
		}
	}
}

// LayerNormSums4 writes to sums[r] the sum of x[r][:n]: s = s +
// float64(x[r][j]) for j in order, from +0.
func LayerNormSums4(n int, x [4][]float32, sums *[4]float64) {
	if n <= 0 {
		*sums = [4]float64{}
		return
	}
	lnRows("LayerNormSums4", n, x[:]...)
	lnSums(n, &x[0][0], &x[1][0], &x[2][0], &x[3][0], &sums[0])
}

// LayerNormSqDev4 writes to ss[r] the sum of squared deviations of x[r][:n]
// from mu[r]: s = s + (d·d), d = float64(x[r][j]) − mu[r], for j in order,
// from +0.
func LayerNormSqDev4(n int, x [4][]float32, mu, ss *[4]float64) {
	if n <= 0 {
		*ss = [4]float64{}
		return
	}
	lnRows("LayerNormSqDev4", n, x[:]...)
	lnSqDev(n, &x[0][0], &x[1][0], &x[2][0], &x[3][0], &mu[0], &ss[0])
}

// LayerNormBackSums4 writes to sg[r] and sgy[r] the sums of g[r][:n] and of
// y[r][:n]·g[r][:n]: sg = sg + float64(g[r][j]) and sgy = sgy +
// (float64(y[r][j])·float64(g[r][j])), for j in order, from +0.
func LayerNormBackSums4(n int, g, y [4][]float32, sg, sgy *[4]float64) {
	if n <= 0 {
		*sg, *sgy = [4]float64{}, [4]float64{}
		return
	}
	lnRows("LayerNormBackSums4", n, g[:]...)
	lnRows("LayerNormBackSums4", n, y[:]...)
	lnBackSums(n, &g[0][0], &g[1][0], &g[2][0], &g[3][0], &y[0][0], &y[1][0], &y[2][0], &y[3][0], &sg[0], &sgy[0])
}

// LayerNormOutRow writes out[j] = float32((float64(x[j]) − mu)·s) for the
// first 4·⌊len(x)/4⌋ floats of x and returns how many that is; the caller
// does the others.
func LayerNormOutRow(x, out []float32, mu, s float64) int {
	n := len(x) &^ 3
	if len(out) < len(x) {
		panic(fmt.Sprintf("simd: LayerNormOutRow of %d floats into %d", len(x), len(out)))
	}
	if n > 0 {
		lnOutRow(n, &x[0], &out[0], mu, s)
	}
	return n
}

// LayerNormBackOutRow adds gx[j] = float32(((float64(gy[j]) − mg) −
// float64(y[j])·mgy)·s) + gx[j] for the first 4·⌊len(gx)/4⌋ floats and
// returns how many that is; the caller does the others.
func LayerNormBackOutRow(gy, y, gx []float32, mg, mgy, s float64) int {
	n := len(gx) &^ 3
	if len(gy) < len(gx) || len(y) < len(gx) {
		panic(fmt.Sprintf("simd: LayerNormBackOutRow of %d and %d floats into %d", len(gy), len(y), len(gx)))
	}
	if n > 0 {
		lnBackOutRow(n, &gy[0], &y[0], &gx[0], mg, mgy, s)
	}
	return n
}
