package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// assign5Kernels emits the kernels of PCGCN's small per-epoch operations
// added in session 46: ReLUAddScaledSub's backward writing its first
// gradients instead of adding into cleared buffers.
func assign5Kernels() {
	masks := NewDataAddr(NewStaticSymbol("tailmask"), 0)
	rc := NewDataAddr(NewStaticSymbol("reluconst"), 0)
	reluAddScaledSubBwdFresh(masks, rc)
}

// reluAddScaledSubBwdFresh emits reluAddScaledSubBwd (main.go) with one more
// bit set per gradient: where bit i of fresh is set (bit 0 gx, 1 ga, 2 gb),
// the gradient is written, not read, with the bits of the accumulation onto
// a buffer of +0: v + 0. For gx and ga that is v itself (g3 and g1 end with
// an add of +0, so they are never −0 and never a signalling NaN); for gb,
// (−g1) + 0, which turns a −0 into +0. A gradient with its bit in which but
// not in fresh is accumulated as in reluAddScaledSubBwd; the three are
// visited in the order x, a, b, so a buffer named twice (x = a) is written,
// then added into, as the cleared buffer was.
func reluAddScaledSubBwdFresh(masks, rc Mem) {
	kernel("reluAddScaledSubBwdFresh", "func(n int, gy, out, gx, ga, gb *float32, c, mi float32, which, fresh int)",
		"reluAddScaledSubBwdFresh is reluAddScaledSubBwd writing the gradients whose bit is set in fresh onto +0 instead of adding into them (see ReLUAddScaledSubBackwardFresh).")
	n := Load(Param("n"), GP64())
	pgy := Load(Param("gy"), GP64())
	pout := Load(Param("out"), GP64())
	pgx := Load(Param("gx"), GP64())
	pga := Load(Param("ga"), GP64())
	pgb := Load(Param("gb"), GP64())
	which := Load(Param("which"), GP64())
	fresh := Load(Param("fresh"), GP64())
	cv, mv := YMM(), YMM()
	VBROADCASTSS(Load(Param("c"), XMM()), cv)
	VBROADCASTSS(Load(Param("mi"), XMM()), mv)
	sign, zero := YMM(), YMM()
	VMOVUPS(rc, sign)
	VXORPS(zero, zero, zero)
	i := GP64()
	at := func(base Register) Mem { return Mem{Base: base, Index: i, Scale: 4} }

	body := func(mask VecVirtual, sfx string) {
		load := func(base Register) VecVirtual {
			v := YMM()
			if mask != nil {
				VMASKMOVPS(at(base), mask, v)
			} else {
				VMOVUPS(at(base), v)
			}
			return v
		}
		store := func(v VecVirtual, base Register) {
			if mask != nil {
				VMASKMOVPS(v, mask, at(base))
			} else {
				VMOVUPS(v, at(base))
			}
		}
		// put writes v + 0 (plus0) or v to base[i] when bit is set in
		// fresh, else base[i] = v + base[i] when it is set in which
		put := func(v VecVirtual, base Register, bit int, name string, plus0 bool) {
			BTQ(U8(bit), fresh)
			JCS(LabelRef("new" + name + sfx))
			BTQ(U8(bit), which)
			JCC(LabelRef("skip" + name + sfx))
			t := load(base)
			VADDPS(t, v, t)
			store(t, base)
			JMP(LabelRef("skip" + name + sfx))
			Label("new" + name + sfx)
			if plus0 {
				u := YMM()
				VADDPS(zero, v, u)
				store(u, base)
			} else {
				store(v, base)
			}
			Label("skip" + name + sfx)
		}
		gy, out := load(pgy), load(pout)
		VPCMPGTD(zero, out, out) // out > 0 as int32: sign clear, not zero
		VANDPS(out, gy, gy)
		VADDPS(zero, gy, gy) // g3
		put(gy, pgx, 0, "x", false)
		VADDPS(zero, gy, gy) // g2
		VMULPS(cv, gy, gy)
		VADDPS(zero, gy, gy)
		VMULPS(mv, gy, gy)
		VADDPS(zero, gy, gy) // g1
		put(gy, pga, 1, "a", false)
		VXORPS(sign, gy, gy) // −g1
		put(gy, pgb, 2, "b", true)
	}
	elementLoop(masks, n, i, body)
}
