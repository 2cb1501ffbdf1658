package graphio

import (
	"fmt"

	"github.com/pcgcn/pcgcn/graph"
)

// ReadGeomGCNSplits reads Geom-GCN split files (*_split_0.6_0.2_K.npz), one
// split per path in the order given. Each archive must hold boolean (or 0/1
// uint8) arrays train_mask, val_mask and test_mask of length n; the three
// parts must be non-empty and disjoint. They may leave nodes out (Cora's
// masks cover 2,485 of its 2,708 nodes).
func ReadGeomGCNSplits(paths []string, n int) ([]graph.Split, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no split files given")
	}
	out := make([]graph.Split, len(paths))
	for k, p := range paths {
		data, err := readFiles(p)
		if err != nil {
			return nil, err
		}
		s, err := decodeGeomGCNSplit(p, data[0], n, k)
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// decodeGeomGCNSplit decodes one split archive.
func decodeGeomGCNSplit(path string, data []byte, n, k int) (graph.Split, error) {
	z, err := openNPZ(path, data)
	if err != nil {
		return graph.Split{}, err
	}
	var masks [3][]bool
	for i, key := range []string{"train_mask", "val_mask", "test_mask"} {
		a, err := z.get(key)
		if err != nil {
			return graph.Split{}, err
		}
		if len(a.Shape) != 1 || a.Shape[0] != n {
			return graph.Split{}, fmt.Errorf("%s: %s has shape %v, want (%d,)", path, key, a.Shape, n)
		}
		if masks[i], err = a.Bools(); err != nil {
			return graph.Split{}, fmt.Errorf("%s: %s: %v", path, key, err)
		}
	}
	return splitFromMasks(path, k, masks[0], masks[1], masks[2])
}
