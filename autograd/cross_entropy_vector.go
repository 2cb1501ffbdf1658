package autograd

import (
	"math"

	"github.com/pcgcn/pcgcn/internal/simd"
)

// The vector path of CrossEntropy. Its scalar loops call math.Exp once per
// logit (and math.Log once per row), one float64 call at a time: on a
// 5-class graph that was 5–9% of a PCGCN epoch, three cross-entropies over
// the training rows. Here a block of rows writes its exponentials'
// arguments into a buffer, simd.Exp64 evaluates them four at a time with
// math.Exp's own operations (bit for bit), the rows then sum them and form
// the gradient exactly as the scalar loops do, in the same order, and
// simd.Log64 takes the sums' logarithms with math.Log's operations (a sum
// out of its range, NaN or infinite, calls math.Log itself). A block with an argument outside simd.Exp64's range (a NaN or
// infinite logit, or logits 700 apart) calls math.Exp itself, and a block
// with a NaN row maximum runs logSumExp itself, so every result keeps the
// scalar loop's bits (TestCrossEntropyVectorMatchesScalar).

// ceBlock is the number of float64 arguments one block holds (2 KiB on the
// stack); rows wider than that keep the scalar loops.
const ceBlock = 256

// ceVector reports whether rows of cols logits take the vector path.
func ceVector(cols int) bool { return simd.Enabled() && cols >= 1 && cols <= ceBlock }

// expBlock sets buf[k] = math.Exp(buf[k]), through simd.Exp64 when every
// argument is in its range (inRange).
func expBlock(buf []float64, inRange bool) {
	if inRange {
		simd.Exp64(buf)
		return
	}
	for k, a := range buf {
		buf[k] = math.Exp(a)
	}
}

// logBlock sets buf[k] = math.Log(buf[k]), through simd.Log64 when every
// argument is in its range (normal).
func logBlock(buf []float64, normal bool) {
	if normal {
		simd.Log64(buf)
		return
	}
	for k, a := range buf {
		buf[k] = math.Log(a)
	}
}

// crossEntropyLSEVector is crossEntropyLSE's loop on the vector path: for
// each selected row, m = max (Go's max, NaN-propagating, as logSumExp),
// s = Σ math.Exp(float64(v − m)) in column order from +0, and
// float32(float64(m) + math.Log(s)).
func crossEntropyLSEVector(o *Var, lo, hi int) {
	cols, xd := o.in[0].Value.Cols, o.in[0].Value.Data
	var buf, sums [ceBlock]float64
	var mx [ceBlock]float32
	per := ceBlock / cols
	for q0 := lo; q0 < hi; q0 += per {
		q1 := min(q0+per, hi)
		k, inRange, nan := 0, true, false
		if cols <= 8 {
			// the loop below in one kernel call (TestCEShiftRowsMatchesGo)
			f := simd.CEShiftRows(o.idx[q0:q1], xd, cols, buf[:], mx[:], simd.Exp64MaxArg)
			nan, inRange, k = f&1 != 0, f&2 == 0, (q1-q0)*cols
		} else {
			nan, inRange = ceShiftMaxGo(o.idx[q0:q1], xd, cols, buf[:], mx[:])
			k = (q1 - q0) * cols
		}
		if nan {
			// which NaN max returns is the compiler's choice (a NaN with a
			// number's payload bits, here): logSumExp's own code decides
			for q := q0; q < q1; q++ {
				i := int(o.idx[q])
				o.aux.Data[q] = float32(logSumExp(xd[i*cols : (i+1)*cols]))
			}
			continue
		}
		expBlock(buf[:k], inRange)
		k = 0
		normal := true
		for q := q0; q < q1; q++ {
			var s float64
			for _, e := range buf[k : k+cols] {
				s += e
			}
			k += cols
			sums[q-q0] = s
			normal = normal && s >= math.SmallestNonzeroFloat64*(1<<52) && s <= math.MaxFloat64
		}
		logBlock(sums[:q1-q0], normal)
		for q := q0; q < q1; q++ {
			o.aux.Data[q] = float32(float64(mx[q-q0]) + sums[q-q0])
		}
	}
}

// crossEntropyBackVector is crossEntropyBackRows's loop on the vector path:
// gr[j] += g·float32(math.Exp(float64(v − lse))), then gr[label] −= g.
func crossEntropyBackVector(o *Var, g float32, lo, hi int) {
	logits := o.in[0]
	cols, xd, gx := logits.Value.Cols, logits.Value.Data, logits.Grad.Data
	var buf [ceBlock]float64
	per := ceBlock / cols
	for q0 := lo; q0 < hi; q0 += per {
		q1 := min(q0+per, hi)
		k, inRange := 0, true
		if cols <= 8 {
			// the loop below in one kernel call (TestCEShiftRowsMatchesGo)
			f := simd.CEShiftRowsBy(o.idx[q0:q1], xd, cols, buf[:], o.aux.Data[q0:q1], simd.Exp64MaxArg)
			inRange, k = f&2 == 0, (q1-q0)*cols
		} else {
			inRange = ceShiftByGo(o.idx[q0:q1], xd, cols, buf[:], o.aux.Data[q0:q1])
			k = (q1 - q0) * cols
		}
		expBlock(buf[:k], inRange)
		if cols <= 8 {
			// ceGradGo in one kernel call (TestCEGradRowsMatchesGo)
			simd.CEGradRows(o.idx[q0:q1], buf[:k], gx, cols, g, o.lab)
		} else {
			ceGradGo(o.idx[q0:q1], buf[:k], gx, cols, g, o.lab)
		}
	}
}

// ceGradGo adds the gradient rows of a block: gr[j] += g·float32(e_j) for
// row idx[q]'s exponentials e = buf[q·cols : +cols], then gr[label] −= g.
func ceGradGo(idx []int32, buf []float64, gx []float32, cols int, g float32, lab []int32) {
	k := 0
	for _, i := range idx {
		gr := gx[int(i)*cols : (int(i)+1)*cols]
		src := buf[k : k+cols]
		src = src[:len(gr)]
		for j, e := range src {
			gr[j] += g * float32(e)
		}
		k += cols
		gr[lab[i]] -= g
	}
}

// ceShiftMaxGo writes, for the rows idx of xd (cols each), the row maxima
// (Go's max) into mx and float64(v − m) into buf, row after row, and
// reports whether a maximum is a NaN and whether every value lies within
// simd.Exp64's range: the loop simd.CEShiftRows packs.
func ceShiftMaxGo(idx []int32, xd []float32, cols int, buf []float64, mx []float32) (nan, inRange bool) {
	k, inRange := 0, true
	for q, i := range idx {
		row := xd[int(i)*cols : (int(i)+1)*cols]
		m := row[0]
		for _, v := range row[1:] {
			m = max(m, v)
		}
		mx[q] = m
		if m != m {
			nan = true
		}
		if !shiftRow(buf[k:k+cols], row, m) {
			inRange = false
		}
		k += cols
	}
	return nan, inRange
}

// ceShiftByGo is ceShiftMaxGo with the shifts given (s[q] for row idx[q]):
// the loop simd.CEShiftRowsBy packs.
func ceShiftByGo(idx []int32, xd []float32, cols int, buf []float64, s []float32) (inRange bool) {
	k, inRange := 0, true
	for q, i := range idx {
		if !shiftRow(buf[k:k+cols], xd[int(i)*cols:(int(i)+1)*cols], s[q]) {
			inRange = false
		}
		k += cols
	}
	return inRange
}

// shiftRow writes float64(row[j] − s) into dst[j] and reports whether every
// value lies within simd.Exp64's argument range (NaN does not).
func shiftRow(dst []float64, row []float32, s float32) bool {
	dst = dst[:len(row)]
	in := true
	for j, v := range row {
		a := float64(v - s)
		dst[j] = a
		if a < -simd.Exp64MaxArg || !(a <= simd.Exp64MaxArg) {
			in = false
		}
	}
	return in
}
