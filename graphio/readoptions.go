package graphio

import "github.com/pcgcn/pcgcn/internal/npy"

// Progress is told how far the reading of a large file has got: done of
// total bytes of path. It is called from the reading goroutine, at most once
// per chunk (a few MiB), with done = total at the end.
type Progress func(path string, done, total int64)

// ReadOptions tunes the user-graph reader; the zero value reads quietly.
type ReadOptions struct {
	// Progress, when non-nil, receives the bytes read of each file.
	Progress Progress
	// MapFeatures maps a dense float32 features.npy read-only into memory
	// instead of copying it (graph.Features.Backing), for graphs whose
	// features are larger than memory should hold: pages are read when a
	// row is used and can be given back (graph.Features.ReleaseRows).
	// Other files and systems without mapping are read as usual.
	MapFeatures bool
}

// chunkBytes is how much of a file is decoded at a time, as the .npy
// streams do (npy.ChunkBytes): the readers hold this much besides their
// result.
const chunkBytes = npy.ChunkBytes
