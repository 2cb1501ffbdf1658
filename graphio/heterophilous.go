package graphio

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
)

// ReadHeterophilous reads one .npz of Platonov et al.'s heterophily
// benchmark (chameleon, squirrel, *_filtered, minesweeper, tolokers, actor,
// texas, wisconsin, cornell): node_features float (n, f), node_labels int
// (n,), edges int (m, 2) (each undirected edge once; symmetrised here, with
// self-loops and duplicates dropped should there be any) and train_masks,
// val_masks, test_masks bool (k, n), giving k splits (10 in every published
// file). The graph is named after the file without ".npz".
func ReadHeterophilous(path string) (*graph.Graph, error) {
	data, err := readFiles(path)
	if err != nil {
		return nil, err
	}
	return decodeHeterophilous(path, data[0], false)
}

// ReadHeterophilousDirected reads a directed file of the same benchmark
// (chameleon_directed.npz and the like: the same arrays, but edges lists each
// Wikipedia link once, from the linking page to the linked one). Adj is its
// symmetrisation, as ReadHeterophilous gives; Out keeps the direction, for
// the models whose authors aggregate over the directed graph.
func ReadHeterophilousDirected(path string) (*graph.Graph, error) {
	data, err := readFiles(path)
	if err != nil {
		return nil, err
	}
	return decodeHeterophilous(path, data[0], true)
}

// decodeHeterophilous decodes the archive bytes read from path; directed
// keeps the edge direction in Out.
func decodeHeterophilous(path string, data []byte, directed bool) (*graph.Graph, error) {
	z, err := openNPZ(path, data)
	if err != nil {
		return nil, err
	}
	la, err := z.get("node_labels")
	if err != nil {
		return nil, err
	}
	if len(la.Shape) != 1 {
		return nil, fmt.Errorf("%s: node_labels has shape %v, want (n,)", path, la.Shape)
	}
	n := la.Shape[0]
	if n == 0 || n > MaxNodes {
		return nil, fmt.Errorf("%s: node_labels has %d nodes", path, n)
	}
	lv, err := la.Ints()
	if err != nil {
		return nil, fmt.Errorf("%s: node_labels: %v", path, err)
	}
	y, classes, err := labelsFrom(path, lv)
	if err != nil {
		return nil, err
	}
	fa, err := z.get("node_features")
	if err != nil {
		return nil, err
	}
	if len(fa.Shape) != 2 || fa.Shape[0] != n || fa.Shape[1] == 0 {
		return nil, fmt.Errorf("%s: node_features has shape %v, want (%d, f) with f ≥ 1", path, fa.Shape, n)
	}
	fv, err := fa.Floats()
	if err != nil {
		return nil, fmt.Errorf("%s: node_features: %v", path, err)
	}
	x, err := denseFeatures(path, n, fa.Shape[1], fv)
	if err != nil {
		return nil, err
	}
	ea, err := z.get("edges")
	if err != nil {
		return nil, err
	}
	if len(ea.Shape) != 2 || ea.Shape[1] != 2 {
		return nil, fmt.Errorf("%s: edges has shape %v, want (m, 2)", path, ea.Shape)
	}
	ev, err := ea.Ints()
	if err != nil {
		return nil, fmt.Errorf("%s: edges: %v", path, err)
	}
	edges, err := edgesFrom(path, ev, n)
	if err != nil {
		return nil, err
	}
	splits, err := splitsFromMasks(path, z, n)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(path), ".npz")
	g, err := assemble(path, name, []string{path}, x, y, classes, edges, splits)
	if err != nil || !directed {
		return g, err
	}
	if g.Out, err = graph.DirectedAdjacency(n, edges); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return g, nil
}
