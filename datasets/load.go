package datasets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/graphio"
)

// Load resolves the files of a registry dataset (see [Resolve]) and reads
// them into a graph with its standard splits. Features are raw: models that
// want row-normalised features ask for them. An unknown name gives an error
// listing the valid names.
func Load(name string, o Options) (*graph.Graph, error) {
	e, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	paths, err := Resolve(e, o)
	if err != nil {
		return nil, err
	}
	return read(e, paths)
}

// read assembles e from its resolved files.
func read(e Entry, paths map[string]string) (*graph.Graph, error) {
	gf := e.GraphFiles()
	first := paths[gf[0].Path]
	var g *graph.Graph
	var err error
	switch e.Loader {
	case LoaderPlanetoid:
		g, err = graphio.ReadPlanetoid(filepath.Dir(first), e.Source)
	case LoaderGeomGCN:
		g, err = graphio.ReadGeomGCN(filepath.Dir(first))
	case LoaderHeterophilous:
		g, err = graphio.ReadHeterophilous(first)
	case LoaderHeterophilousDirected:
		g, err = graphio.ReadHeterophilousDirected(first)
	case LoaderGraphSAINT:
		g, err = graphio.ReadGraphSAINT(filepath.Dir(first))
	default:
		return nil, fmt.Errorf("dataset %s: unknown loader %q", e.Name, e.Loader)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", e.Name, err)
	}
	if e.Splits == SplitsGeomGCN {
		var sp []string
		for _, f := range e.SplitFiles() {
			sp = append(sp, paths[f.Path])
		}
		if g.Splits, err = graphio.ReadGeomGCNSplits(sp, g.N); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", e.Name, err)
		}
	}
	g.Name = e.Name
	g.Files = g.Files[:0]
	for _, f := range e.Files {
		g.Files = append(g.Files, paths[f.Path])
	}
	if g.N != e.Nodes || g.NumClasses != e.Classes {
		return nil, fmt.Errorf("dataset %s: files give %d nodes and %d classes, the registry expects %d and %d",
			e.Name, g.N, g.NumClasses, e.Nodes, e.Classes)
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// LoadPath reads a graph given by path (the --data PATH flag): a directory
// in the user format (graphio.ReadUserGraph), or a single
// heterophilous-graphs style .npz file. Parser errors name the file, and so
// does the error for labels beyond graph.MaxClassesFor (a typo such as
// 65535 among a few labels). It is LoadPathWith without options: no
// remapping and no random splits.
func LoadPath(path string) (*graph.Graph, error) {
	return LoadPathWith(path, Options{})
}

// readPath reads the graph at path as LoadPath describes, drawing a byte
// progress bar on o.Progress for each large file of a user graph directory
// when o.Progress is a terminal or o.ProgressBar is set (see readProgress).
func readPath(path string, o Options) (*graph.Graph, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var g *graph.Graph
	switch {
	case st.IsDir():
		rp := readProgress{o: o}
		g, err = graphio.ReadUserGraphWith(path, graphio.ReadOptions{Progress: rp.update, MapFeatures: o.MapFeatures})
		rp.finish()
	case strings.EqualFold(filepath.Ext(path), ".npz"):
		g, err = graphio.ReadHeterophilous(path)
	default:
		return nil, fmt.Errorf("%s: not a dataset directory or a .npz file", path)
	}
	if err != nil {
		return nil, err
	}
	if g.Name == "" {
		g.Name = path
	}
	if err := g.Validate(); err != nil {
		return nil, err
	}
	return g, nil
}

// IsPath reports whether name refers to a file or directory rather than a
// registry entry: it names no registry dataset and exists on disk.
func IsPath(name string) bool {
	if _, err := Lookup(name); err == nil {
		return false
	}
	_, err := os.Stat(name)
	return err == nil
}

// Open loads a registry dataset by name (Load) or, when name is a path to a
// user graph, that graph (LoadPathWith, with opts' label remapping and
// random splits); studies accept either.
func Open(name string, opts Options) (*graph.Graph, error) {
	if IsPath(name) {
		return LoadPathWith(name, opts)
	}
	return Load(name, opts)
}
