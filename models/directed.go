package models

import (
	"slices"
	"strings"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/tensor"
)

// Direction is how a model treats a graph whose links have a direction (the
// Wikipedia pages of Chameleon and Squirrel link to each other one way; the
// Geom-GCN text files of Actor and the WebKB graphs list directed links), as
// its authors' published code does. docs/notes/issue24-research.md gives the
// file and line each model's decision comes from.
type Direction int

const (
	// Symmetrised models aggregate over the undirected graph: their authors'
	// loader symmetrises the links (H2GCN, FAGCN, LINKX, GloGNN), or the
	// authors publish no loader for directed graphs (GCN, GAT, GraphSAGE,
	// SGC, APPNP, MixHop, MLP), or their code follows neither the symmetrised
	// graph nor the Geom-GCN links (GPRGNN propagates over the raw MUSAE list).
	Symmetrised Direction = iota
	// OutLinks models aggregate over the pages a page links to, with
	// out-degrees in D̃^{-1/2}(A_out+I)D̃^{-1/2}: their authors' loader builds
	// an nx.DiGraph and normalises its rows only (GCNII's and GGCN's
	// process.py). The main table trains them on the directed dataset
	// ("chameleon-directed"), whose preset sets directed=true.
	OutLinks
	// ChosenOnValidation models have no published code (PCGCN): the main
	// table trains them on both graphs and reports the one with the better
	// validation metric, as it does for the feature normalisation.
	ChosenOnValidation
)

// DirectedOption is the option of the models that can aggregate over a
// graph's out-links (PCGCN, GCN, GCNII, GGCN). On a dataset named with
// DirectedSuffix every such model's preset sets it, whatever its Direction:
// a user who asks for "chameleon-directed" trains on the directed graph
// (--set directed=false gives the symmetrised one). The Direction says only
// which graph the main table trains a model on.
const DirectedOption = "directed"

// HasDirected reports whether cfg has the directed option.
func HasDirected(cfg Config) bool { return slices.Contains(OptionKeys(cfg), DirectedOption) }

// IsDirected reports whether cfg has the directed option and it is on.
func IsDirected(cfg Config) bool {
	for _, o := range Options(cfg) {
		if o.Key == DirectedOption {
			on, _ := o.Value.(bool)
			return on
		}
	}
	return false
}

// OnOutLinks reports whether a model configured by cfg aggregates over g's
// out-links (the directed normalisation, see propagation): its directed
// option is on and g keeps its links' direction (graph.Graph.Out). When
// false it aggregates over the symmetrised graph, Â.
func OnOutLinks(cfg Config, g *graph.Graph) bool { return IsDirected(cfg) && g.Out != nil }

// String names the direction as `pcgcn models` prints it.
func (d Direction) String() string {
	switch d {
	case OutLinks:
		return "out-links"
	case ChosenOnValidation:
		return "chosen on validation"
	}
	return "symmetrised"
}

// DirectedSuffix ends the name of a dataset that keeps its links' direction
// and is otherwise its parent's graph ("squirrel-directed").
const DirectedSuffix = "-directed"

// PresetDataset is the dataset whose presets a dataset uses: a directed
// file of the heterophily benchmark ("squirrel-directed",
// "chameleon-filtered-directed") holds the nodes, features, labels and
// splits of its undirected graph and takes that graph's presets; every
// other name is its own.
func PresetDataset(ds string) string { return strings.TrimSuffix(ds, DirectedSuffix) }

// propagation returns the normalised adjacency a convolution aggregates
// with: the graph's Â, or, with directed set and a graph that keeps its
// links' direction (graph.Graph.Out: the *-directed datasets, the Geom-GCN
// text files), D̃^{-1/2}(A_out + I)D̃^{-1/2} with out-degrees
// (graph.Graph.DirectedAHat), so that a node aggregates over the pages it
// links to, as the GCNII and GGCN authors' loaders build the Wikipedia
// graphs (docs/notes/issue24-research.md). Without a direction it is Â.
func propagation(d *Data, directed bool) *tensor.CSR {
	if directed && d.Graph.Out != nil {
		return d.Graph.DirectedAHat()
	}
	return d.AHat()
}
