package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math"

	"github.com/pcgcn/pcgcn/tensor"
)

// FingerprintVersion names the layout Fingerprint hashes; it changes only if
// that layout does (never with the data).
const FingerprintVersion = "pcgcn-graph-v1"

// Fingerprint returns "sha256:" and the hex SHA-256 of the graph's content as
// loaded: node count, classes, the undirected adjacency, the directed one
// when there is one, the features (raw values, in their dense or sparse
// layout, which is itself a function of the values), the labels and every
// split. The name and the files it came from are left out, so the same graph
// in a renamed folder has the same fingerprint, and an edited file gives a
// new one. Saved results are keyed by it (with the seed and the
// configuration), so they never answer for different data.
//
// It hashes every array once, in little-endian order, through a 64 KiB
// buffer: about a second for a graph of a million nodes, ten million edges
// and 64 dense features.
func (g *Graph) Fingerprint() string { return g.fingerprint(g.Splits) }

// fingerprint is Fingerprint with the given splits in place of g's.
func (g *Graph) fingerprint(splits []Split) string {
	w := hashWriter{h: sha256.New(), buf: make([]byte, 0, 1<<16)}
	w.str(FingerprintVersion)
	w.u64(uint64(g.N))
	w.u64(uint64(g.NumClasses))
	w.csr(g.Adj)
	w.csr(g.Out)
	switch {
	case g.X.Dense != nil:
		w.str("dense")
		w.u64(uint64(g.X.Dense.Rows))
		w.u64(uint64(g.X.Dense.Cols))
		// by blocks of rows, so that memory-mapped features are paged in a
		// block at a time and given back (Features.ReleaseRows)
		d := g.X.Dense
		w.u64(uint64(len(d.Data))) // the bytes of w.f32s(d.Data)
		block := max(1, (1<<22)/max(1, 4*d.Cols))
		for lo := 0; lo < d.Rows; lo += block {
			hi := min(d.Rows, lo+block)
			w.f32values(d.Data[lo*d.Cols : hi*d.Cols])
			g.X.ReleaseRows(lo, hi)
		}
	case g.X.Sparse != nil:
		w.str("sparse")
		w.csr(g.X.Sparse)
	default:
		w.str("none")
	}
	w.i32s(g.Y)
	w.u64(uint64(len(splits)))
	for _, s := range splits {
		w.i32s(s.Train)
		w.i32s(s.Val)
		w.i32s(s.Test)
	}
	return "sha256:" + hex.EncodeToString(w.sum())
}

// hashWriter feeds fixed-width little-endian values to a hash through a
// buffer, so that hashing a large array costs no allocation per element.
type hashWriter struct {
	h   hash.Hash
	buf []byte
}

func (w *hashWriter) room(n int) {
	if len(w.buf)+n > cap(w.buf) {
		w.h.Write(w.buf)
		w.buf = w.buf[:0]
	}
}

func (w *hashWriter) u64(v uint64) {
	w.room(8)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
}

// str writes a length-prefixed string, so that consecutive fields cannot
// run into each other.
func (w *hashWriter) str(s string) {
	w.u64(uint64(len(s)))
	for len(s) > 0 {
		w.room(1)
		n := min(len(s), cap(w.buf)-len(w.buf))
		w.buf = append(w.buf, s[:n]...)
		s = s[n:]
	}
}

func (w *hashWriter) i32s(v []int32) {
	w.u64(uint64(len(v)))
	for _, x := range v {
		w.room(4)
		w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(x))
	}
}

func (w *hashWriter) f32s(v []float32) {
	w.u64(uint64(len(v)))
	w.f32values(v)
}

// f32values writes the values of v without their count.
func (w *hashWriter) f32values(v []float32) {
	for _, x := range v {
		w.room(4)
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(x))
	}
}

// csr writes a matrix's shape, structure and values; a nil matrix is
// written as a marker, distinct from an empty one.
func (w *hashWriter) csr(a *tensor.CSR) {
	if a == nil {
		w.str("nil")
		return
	}
	w.str("csr")
	w.u64(uint64(a.Rows))
	w.u64(uint64(a.Cols))
	w.i32s(a.RowPtr)
	w.i32s(a.ColIdx)
	w.f32s(a.Val)
}

func (w *hashWriter) sum() []byte {
	w.h.Write(w.buf)
	w.buf = w.buf[:0]
	return w.h.Sum(nil)
}

// ContentFingerprint is Fingerprint without the splits: the same for a
// graph whatever splits it carries (its files' or random ones), so that a
// saved model can tell the graph it was trained on from another whatever
// splits either was loaded with.
func (g *Graph) ContentFingerprint() string { return g.fingerprint(nil) }
