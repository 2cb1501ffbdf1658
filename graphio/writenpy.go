package graphio

import (
	"archive/zip"
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/internal/npy"
)

// Role is a node's part in one split, as NPYGraph.SplitRoles reports it.
type Role uint8

// The roles of a node in a split.
const (
	RoleNone Role = iota // in no part of the split
	RoleTrain
	RoleVal
	RoleTest
)

// NPYGraph is a graph to write in the binary user format. Its edges,
// features and splits are produced in pieces through callbacks, so a
// generator never needs the whole graph in memory: the writer holds one
// chunk and, for the splits, one byte per node.
type NPYGraph struct {
	// Labels are the node labels; their length is the node count n.
	Labels []int32
	// NumEdges is the number of rows of edges.npy.
	NumEdges int
	// Edges emits the NumEdges edges in order, in chunks of any size.
	Edges func(emit func([]graph.Edge) error) error
	// FeatureDim is the number of feature columns f ≥ 1.
	FeatureDim int
	// Features emits the n×f row-major float32 values in order, in chunks
	// of any size.
	Features func(emit func([]float32) error) error
	// NumSplits is the number of splits written to splits.npz (0: no file).
	NumSplits int
	// SplitRoles fills roles (length n) with the nodes' parts in split s. It
	// is called three times per split (once per mask array), so it must be
	// a pure function of s.
	SplitRoles func(s int, roles []Role)
	// CSR also writes the adjacency in CSR form (WriteCSR: csr_indptr.npy,
	// csr_indices.npy, csr_data.npy), which readers map instead of
	// building it from edges.npy; Edges is then called three times.
	CSR bool
}

// WriteNPYGraph writes g into the directory dir as edges.npy ((m, 2)
// int32), labels.npy ((n,) int64), features.npy ((n, f) float32) and, when
// g has splits, splits.npz (train_masks, val_masks, test_masks, (k, n)
// bool, stored uncompressed): the files ReadUserGraph and NumPy's np.load
// read. The bytes depend only on the content. It writes into a temporary
// directory beside dir and renames it to dir at the end, so dir never holds
// a partial graph; dir must not exist or be an empty directory.
func WriteNPYGraph(dir string, g NPYGraph) error {
	n := len(g.Labels)
	if n == 0 || n > MaxNodes || g.FeatureDim < 1 || g.NumEdges < 0 || g.NumSplits < 0 {
		return fmt.Errorf("%s: cannot write %d nodes, %d edges, %d features, %d splits", dir, n, g.NumEdges, g.FeatureDim, g.NumSplits)
	}
	return writeDirAtomic(dir, func(tmp string) error {
		if err := writeNPYFile(tmp, "edges.npy", "<i4", []int{g.NumEdges, 2}, func(w *bufio.Writer) (int, error) {
			return writeEdges(w, n, g.Edges)
		}); err != nil {
			return err
		}
		if err := writeNPYFile(tmp, "labels.npy", "<i8", []int{n}, func(w *bufio.Writer) (int, error) {
			var b [8]byte
			for _, y := range g.Labels {
				binary.LittleEndian.PutUint64(b[:], uint64(int64(y)))
				if _, err := w.Write(b[:]); err != nil {
					return 0, err
				}
			}
			return n, nil
		}); err != nil {
			return err
		}
		if err := writeNPYFile(tmp, "features.npy", "<f4", []int{n, g.FeatureDim}, func(w *bufio.Writer) (int, error) {
			return writeFloats(w, g.Features)
		}); err != nil {
			return err
		}
		if g.CSR {
			if err := WriteCSR(tmp, n, g.Edges); err != nil {
				return err
			}
		}
		if g.NumSplits == 0 {
			return nil
		}
		return writeSplitsNPZ(filepath.Join(tmp, "splits.npz"), n, g.NumSplits, g.SplitRoles)
	})
}

// WriteUserGraphNPY writes an in-memory graph with WriteNPYGraph: each
// undirected edge once (as (i, j) with i < j, in adjacency order), dense
// features and the graph's splits.
func WriteUserGraphNPY(dir string, g *graph.Graph) error {
	x := g.X.ToDense()
	return WriteNPYGraph(dir, NPYGraph{
		Labels:   g.Y,
		NumEdges: g.NumEdges(),
		Edges: func(emit func([]graph.Edge) error) error {
			var es []graph.Edge
			for i := 0; i < g.N; i++ {
				for k := g.Adj.RowPtr[i]; k < g.Adj.RowPtr[i+1]; k++ {
					if j := g.Adj.ColIdx[k]; int(j) > i {
						es = append(es, graph.Edge{int32(i), j})
					}
				}
				if len(es) >= 1<<16 {
					if err := emit(es); err != nil {
						return err
					}
					es = es[:0]
				}
			}
			return emit(es)
		},
		FeatureDim: x.Cols,
		Features:   func(emit func([]float32) error) error { return emit(x.Data) },
		NumSplits:  len(g.Splits),
		SplitRoles: SplitRolesOf(g.Splits),
	})
}

// SplitRolesOf returns an NPYGraph.SplitRoles function for splits given as
// index lists.
func SplitRolesOf(splits []graph.Split) func(s int, roles []Role) {
	return func(s int, roles []Role) {
		clear(roles)
		sp := splits[s]
		for _, p := range []struct {
			idx  []int32
			role Role
		}{{sp.Train, RoleTrain}, {sp.Val, RoleVal}, {sp.Test, RoleTest}} {
			for _, i := range p.idx {
				roles[i] = p.role
			}
		}
	}
}

// writeEdges writes the emitted edges as int32 pairs, checking their ends.
func writeEdges(w io.Writer, n int, edges func(func([]graph.Edge) error) error) (int, error) {
	count := 0
	var buf []byte
	err := edges(func(es []graph.Edge) error {
		buf = buf[:0]
		for _, e := range es {
			if e[0] < 0 || int(e[0]) >= n || e[1] < 0 || int(e[1]) >= n {
				return fmt.Errorf("edge %d (%d, %d) names a node outside [0, %d)", count, e[0], e[1], n)
			}
			buf = binary.LittleEndian.AppendUint32(buf, uint32(e[0]))
			buf = binary.LittleEndian.AppendUint32(buf, uint32(e[1]))
			count++
		}
		_, err := w.Write(buf)
		return err
	})
	return count * 2, err
}

// writeFloats writes the emitted values as little-endian float32, rejecting
// NaN and Inf.
func writeFloats(w io.Writer, features func(func([]float32) error) error) (int, error) {
	count := 0
	var buf []byte
	err := features(func(v []float32) error {
		buf = buf[:0]
		for _, x := range v {
			if x != x || math.IsInf(float64(x), 0) {
				return fmt.Errorf("feature value %d is %v", count, x)
			}
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
			count++
		}
		_, err := w.Write(buf)
		return err
	})
	return count, err
}

// writeNPYFile creates dir/name and writes one array into it.
func writeNPYFile(dir, name, descr string, shape []int, fill func(*bufio.Writer) (int, error)) error {
	path := filepath.Join(dir, name)
	return createFile(path, func(w *bufio.Writer) error {
		if err := npy.Write(w, descr, shape, fill); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	})
}

// createFile creates path, writes it through a buffer, syncs and closes it.
func createFile(path string, fill func(*bufio.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// zipTime is the fixed modification time of every archive entry, so that
// the same graph gives the same bytes.
func zipTime() time.Time { return time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC) }

// writeSplitsNPZ writes the three (k, n) bool mask arrays.
func writeSplitsNPZ(path string, n, k int, rolesOf func(int, []Role)) error {
	return createFile(path, func(bw *bufio.Writer) error {
		z := zip.NewWriter(bw)
		roles := make([]Role, n)
		row := make([]byte, n)
		for _, part := range []struct {
			name string
			role Role
		}{{"train_masks", RoleTrain}, {"val_masks", RoleVal}, {"test_masks", RoleTest}} {
			ew, err := z.CreateHeader(&zip.FileHeader{Name: part.name + ".npy", Method: zip.Store, Modified: zipTime()})
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(ew, 1<<20)
			err = npy.Write(w, "|b1", []int{k, n}, func(w *bufio.Writer) (int, error) {
				for s := range k {
					rolesOf(s, roles)
					for i, r := range roles {
						row[i] = 0
						if r == part.role {
							row[i] = 1
						}
					}
					if _, err := w.Write(row); err != nil {
						return 0, err
					}
				}
				return k * n, nil
			})
			if err == nil {
				err = w.Flush()
			}
			if err != nil {
				return fmt.Errorf("splits.npz: %s: %v", part.name, err)
			}
		}
		return z.Close()
	})
}

// writeDirAtomic lets fill write the files of dir into a fresh temporary
// directory beside it, then renames that to dir. On any error the
// temporary directory is removed and dir is left as it was.
func writeDirAtomic(dir string, fill func(tmp string) error) (err error) {
	dir = filepath.Clean(dir)
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return fmt.Errorf("%s: exists and is not empty; remove it or choose another directory", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err = fill(tmp); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if err = os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err = os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err // an empty directory is replaced
	}
	return os.Rename(tmp, dir)
}
