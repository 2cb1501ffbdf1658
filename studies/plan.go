package studies

import (
	"path/filepath"
	"strings"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/graph"
)

// What the studies compute their cells, sections and pages from: the graphs,
// the datasets each study runs on, the saved results and the figure files.

// graph returns a dataset's graph from the runner's graph cache, the one
// cache of a run: the cells' training, the saved results' keys and the
// studies' sections read the same graph, opened once.
func (p *plan) graph(name string) (*graph.Graph, error) { return p.runner.Graph(name) }

// numClasses returns a dataset's class count: the registry's when the name
// is registered (so that a plan lists a study's cells also where the files
// are not at hand), else the loaded graph's.
func (p *plan) numClasses(name string) (int, error) {
	if !datasets.IsPath(name) {
		if e, err := datasets.Lookup(name); err == nil && e.Classes > 0 {
			return e.Classes, nil
		}
	}
	g, err := p.graph(name)
	if err != nil {
		return 0, err
	}
	return g.NumClasses, nil
}

// datasets returns the study's default datasets narrowed by the registry
// names in Options.Datasets (none of the defaults when it names none of
// them), plus every dataset given as a path (--data); with PathsOnly, the
// paths alone. In quick mode the defaults are the small WebKB graphs, or
// only the given paths when there are some, and names outside the defaults
// are run as given.
func (p *plan) datasets(defaults []string) []string {
	var named, paths []string
	for _, w := range p.opt.Datasets {
		if datasets.IsPath(w) {
			paths = append(paths, w)
		} else {
			named = append(named, w)
		}
	}
	if p.opt.Quick && len(named) == 0 {
		if len(paths) > 0 {
			return paths
		}
		named = quickDatasets()
	}
	if len(named) == 0 {
		if p.opt.PathsOnly && len(paths) > 0 {
			return paths
		}
		return append(append([]string{}, defaults...), paths...)
	}
	var out []string
	for _, d := range defaults {
		for _, w := range named {
			if d == w {
				out = append(out, d)
			}
		}
	}
	if len(out) == 0 && p.opt.Quick {
		out = named
	}
	return append(out, paths...)
}

// results loads the saved results of cells, skipping missing ones (main
// cells: the validation-selected candidate).
func (p *plan) results(cells []experiments.Cell) []*experiments.Result {
	return loadAll(cells, p.load)
}

// presetResults is results without the main table's selection: the preset
// candidate of each main cell, the baseline of studies whose variants change
// one switch of the preset (ablation, partial control, missing classes).
func (p *plan) presetResults(cells []experiments.Cell) []*experiments.Result {
	return loadAll(cells, p.loadExact)
}

func loadAll(cells []experiments.Cell, load func(experiments.Cell) *experiments.Result) []*experiments.Result {
	var rs []*experiments.Result
	for _, c := range cells {
		if r := load(c); r != nil {
			rs = append(rs, r)
		}
	}
	return rs
}

// homophilous reports, per dataset, whether its edge homophily is at least
// 0.5, the split the paper's claims use between homophilous and
// heterophilous graphs.
func (p *plan) homophilous(datasets []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, d := range datasets {
		g, err := p.graph(d)
		if err != nil {
			return nil, err
		}
		out[d] = graph.ComputeStats(g).EdgeHomophily >= 0.5
	}
	return out, nil
}

// figure returns the path of a figure file and its link relative to the
// report. name may contain a dataset given as a path (--data): every
// character outside [A-Za-z0-9._-] becomes '_'.
func (p *plan) figure(name string) (path, link string) {
	name = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, strings.TrimLeft(name, "/."))
	return filepath.Join(p.figDir, name), filepath.Join(filepath.Base(p.figDir), name)
}
