package graphio

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// ReadUserGraph reads a user's own graph from dir, in the format described
// in the package documentation and docs/data-format.md: edges.csv,
// edges.tsv or edges.npy, labels.csv or labels.npy, features.csv or
// features.npy, and optionally splits.csv or splits.npz. The graph is named
// after dir.
func ReadUserGraph(dir string) (*graph.Graph, error) {
	return ReadUserGraphWith(dir, ReadOptions{})
}

// ReadUserGraphWith is ReadUserGraph reporting the progress of each file
// through o. The .npy files are decoded in chunks straight into the graph's
// arrays, never held whole as bytes.
func ReadUserGraphWith(dir string, o ReadOptions) (*graph.Graph, error) {
	u := userFiles{open: openFileSource, prog: o.Progress, mapFeatures: o.MapFeatures}
	var err error
	// the CSR adjacency, when its row pointer is there, replaces the edges
	if _, err := os.Stat(filepath.Join(dir, CSRIndPtrFile)); err == nil {
		u.csrDir = dir
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if u.edgesPath, err = findOne(dir, u.csrDir == "", "edges.csv", "edges.tsv", "edges.npy"); err != nil {
		return nil, err
	}
	if u.featPath, err = findOne(dir, true, "features.csv", "features.npy"); err != nil {
		return nil, err
	}
	if u.labelPath, err = findOne(dir, true, "labels.csv", "labels.npy"); err != nil {
		return nil, err
	}
	if u.splitPath, err = findOne(dir, false, "splits.csv", "splits.npz"); err != nil {
		return nil, err
	}
	return u.decode(filepath.Base(filepath.Clean(dir)))
}

// findOne returns the path of whichever of names exists in dir. More than
// one is an error naming them; none is an error when required, else "".
func findOne(dir string, required bool, names ...string) (string, error) {
	var found []string
	for _, name := range names {
		p := filepath.Join(dir, name)
		_, err := os.Stat(p)
		if err == nil {
			found = append(found, name)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	switch {
	case len(found) == 1:
		return filepath.Join(dir, found[0]), nil
	case len(found) == 2:
		return "", fmt.Errorf("%s: both %s and %s exist; keep one", dir, found[0], found[1])
	case len(found) > 2:
		return "", fmt.Errorf("%s: %s all exist; keep one", dir, strings.Join(found, ", "))
	case !required:
		return "", nil
	case len(names) == 2:
		return "", fmt.Errorf("%s: neither %s nor %s exists", dir, names[0], names[1])
	}
	return "", fmt.Errorf("%s: none of %s exists", dir, strings.Join(names, ", "))
}

// source is an opened input file (or, in tests, bytes).
type source interface {
	io.Reader
	io.ReaderAt
}

// openFileSource opens path for reading and returns it with its size.
func openFileSource(path string) (source, int64, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return f, st.Size(), f.Close, nil
}

// userFiles names the files of a user graph directory (splitPath "" when
// there are no splits) and how to open them.
type userFiles struct {
	edgesPath, featPath, labelPath, splitPath string

	open func(path string) (source, int64, func() error, error)
	prog Progress
	// mapFeatures maps features.npy (ReadOptions.MapFeatures); only for
	// files on disk, so tests reading bytes leave it off
	mapFeatures bool
	// csrDir is the directory whose CSR files hold the adjacency (ReadCSR),
	// or "" to build it from the edges
	csrDir string
}

// with opens path and passes it to fn, closing it afterwards.
func (u *userFiles) with(path string, fn func(r source, size int64) error) error {
	r, size, closeFn, err := u.open(path)
	if err != nil {
		return err
	}
	defer closeFn()
	return fn(r, size)
}

// readAll returns the whole content of a text file, reporting progress.
func (u *userFiles) readAll(path string) ([]byte, error) {
	var data []byte
	err := u.with(path, func(r source, size int64) error {
		data = make([]byte, 0, size)
		for int64(len(data)) < size {
			k := min(size-int64(len(data)), chunkBytes)
			n, err := io.ReadFull(r, data[len(data):int64(len(data))+k])
			data = data[:len(data)+n]
			if err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			if u.prog != nil {
				u.prog(path, int64(len(data)), size)
			}
		}
		return nil
	})
	return data, err
}

// decode parses the files into a graph. It reads labels (the node count)
// first, then features, edges and splits; at its peak it holds the
// features, the edge list (8 bytes per edge) and the adjacency being built
// from it (8 bytes per directed entry plus 4 per node).
func (u *userFiles) decode(name string) (*graph.Graph, error) {
	y, classes, err := u.labels()
	if err != nil {
		return nil, err
	}
	n := len(y)
	var x graph.Features
	switch {
	case filepath.Ext(u.featPath) == ".npy" && u.mapFeatures:
		x, err = mapNPYFeatures(u.featPath, n, u.prog)
	case filepath.Ext(u.featPath) == ".npy":
		err = u.with(u.featPath, func(r source, size int64) (err error) {
			x, err = npyFeatures(u.featPath, r, size, n, u.prog)
			return err
		})
	default:
		var data []byte
		if data, err = u.readAll(u.featPath); err == nil {
			x, err = userCSVFeatures(u.featPath, u.labelPath, data, n)
		}
	}
	if err != nil {
		return nil, withLabels(err, u.labelPath)
	}
	var edges []graph.Edge
	var adj *tensor.CSR
	var pages graph.Pager
	if u.csrDir != "" {
		adj, pages, err = ReadCSR(u.csrDir, n)
	} else {
		edges, err = u.edges(n)
	}
	if err != nil {
		return nil, err
	}
	var splits []graph.Split
	switch filepath.Ext(u.splitPath) {
	case ".npz":
		err = u.with(u.splitPath, func(r source, size int64) (err error) {
			splits, err = npzSplits(u.splitPath, r, size, n)
			return err
		})
	case ".csv":
		var data []byte
		if data, err = u.readAll(u.splitPath); err == nil {
			splits, err = parseUserSplits(u.splitPath, data, n)
		}
	}
	if err != nil {
		return nil, err
	}
	files := []string{u.edgesPath, u.featPath, u.labelPath}
	if u.csrDir != "" {
		files[0] = filepath.Join(u.csrDir, CSRIndicesFile)
	}
	if u.splitPath != "" {
		files = append(files, u.splitPath)
	}
	if adj != nil {
		g, err := assembleAdj(u.labelPath, name, files, x, y, classes, adj, splits)
		if g != nil {
			g.AdjBacking = pages
		}
		return g, err
	}
	return assemble(u.labelPath, name, files, x, y, classes, edges, splits)
}

// labels reads labels.csv or labels.npy.
func (u *userFiles) labels() (y []int32, classes int, err error) {
	if filepath.Ext(u.labelPath) == ".npy" {
		err = u.with(u.labelPath, func(r source, size int64) (err error) {
			y, classes, err = npyLabels(u.labelPath, r, size, u.prog)
			return err
		})
		return y, classes, err
	}
	data, err := u.readAll(u.labelPath)
	if err != nil {
		return nil, 0, err
	}
	labels, err := parseUserLabels(u.labelPath, data)
	if err != nil {
		return nil, 0, err
	}
	return labelsFrom(u.labelPath, labels)
}

// edges reads edges.csv, edges.tsv or edges.npy.
func (u *userFiles) edges(n int) (es []graph.Edge, err error) {
	if filepath.Ext(u.edgesPath) == ".npy" {
		err = u.with(u.edgesPath, func(r source, size int64) (err error) {
			es, err = npyEdges(u.edgesPath, r, size, n, u.prog)
			return err
		})
		return es, err
	}
	data, err := u.readAll(u.edgesPath)
	if err != nil {
		return nil, err
	}
	sep := ","
	if filepath.Ext(u.edgesPath) == ".tsv" {
		sep = "\t"
	}
	data = trimBOM(data)
	ls, err := lines(u.edgesPath, data, false)
	if err != nil {
		return nil, err
	}
	header := !isIntRow(ls[0], sep, 2) && isHeader(ls[0], sep)
	first := 0 // the first data line, 0-based
	if header {
		first = 1
	}
	if first < len(ls) {
		if err := checkSeparator(u.edgesPath, first+1, ls[first], sep); err != nil {
			return nil, err
		}
	}
	return parseEdgeList(u.edgesPath, data, sep, header, false, n)
}
