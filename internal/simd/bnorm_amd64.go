//go:build !purego

package simd

import "fmt"

// The batch-normalisation passes below each walk a rows×cols block of
// float32 matrices (row stride ld, the same for every matrix of a call) down
// its rows in order, eight columns at a time, with one float64 per column in
// each column vector. They do the first 8·⌊cols/8⌋ columns and return how
// many that is; the caller does the others (each column is on its own). Each
// element gets the float64 operations, in order and with the first operands
// (written first below), of package autograd's Go loops (batchNormCols and batchNormBackCols) at
// the default GOAMD64 level; those loops convert every product they add, so
// that a compiler that fuses a·b+c rounds them the same way.

// bnArgs checks a batch-normalisation pass's arguments and returns the
// number of columns it does (0: nothing to do).
func bnArgs(name string, rows, cols, ld int, mats [][]float32, vecs [][]float64) int {
	done := cols &^ 7
	if rows <= 0 || done == 0 {
		return 0
	}
	ok := ld >= cols
	for _, m := range mats {
		ok = ok && len(m) >= (rows-1)*ld+cols
	}
	for _, v := range vecs {
		ok = ok && len(v) >= done
	}
	if !ok {
		panic(fmt.Sprintf("simd: %s of %d×%d (stride %d) over too short a matrix or vector", name, rows, cols, ld))
	}
	return done
}

// BatchNormSqDev8 adds the squared deviations of x's columns from mu to acc:
// acc[j] = (d·d) + acc[j], d = float64(x[i,j]) − mu[j], for each row i in
// order.
func BatchNormSqDev8(rows, cols, ld int, x []float32, mu, acc []float64) int {
	done := bnArgs("BatchNormSqDev8", rows, cols, ld, [][]float32{x}, [][]float64{mu, acc})
	if done > 0 {
		bnSqDev(rows, done, ld, &x[0], &mu[0], &acc[0])
	}
	return done
}

// BatchNormOut8 writes x's columns standardised to out: out[i,j] =
// float32((float64(x[i,j]) − mu[j])·s[j]).
func BatchNormOut8(rows, cols, ld int, x, out []float32, mu, s []float64) int {
	done := bnArgs("BatchNormOut8", rows, cols, ld, [][]float32{x, out}, [][]float64{mu, s})
	if done > 0 {
		bnOut(rows, done, ld, &x[0], &out[0], &mu[0], &s[0])
	}
	return done
}

// BatchNormBackSums8 adds to sg and sgy the column sums of g and g·y:
// sg[j] = sg[j] + float64(g[i,j]) and sgy[j] =
// (float64(g[i,j])·float64(y[i,j])) + sgy[j], for each row i in order.
func BatchNormBackSums8(rows, cols, ld int, g, y []float32, sg, sgy []float64) int {
	done := bnArgs("BatchNormBackSums8", rows, cols, ld, [][]float32{g, y}, [][]float64{sg, sgy})
	if done > 0 {
		bnBackSums(rows, done, ld, &g[0], &y[0], &sg[0], &sgy[0])
	}
	return done
}

// BatchNormBackOut8 adds batch normalisation's input gradient to gx:
// gx[i,j] = float32(((float64(g[i,j]) − mg[j]) − float64(y[i,j])·mgy[j])·s[j])
// + gx[i,j].
func BatchNormBackOut8(rows, cols, ld int, g, y, gx []float32, mg, mgy, s []float64) int {
	done := bnArgs("BatchNormBackOut8", rows, cols, ld, [][]float32{g, y, gx}, [][]float64{mg, mgy, s})
	if done > 0 {
		bnBackOut(rows, done, ld, &g[0], &y[0], &gx[0], &mg[0], &mgy[0], &s[0])
	}
	return done
}
