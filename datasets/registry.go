package datasets

import (
	"fmt"
	"sort"
	"strings"
)

// Canonical download bases of the upstream repositories, as recorded in
// shared/datasets/README.md.
const (
	PlanetoidBase     = "https://github.com/kimiyoung/planetoid/raw/master/data/"
	GeomGCNSplitsBase = "https://github.com/graphdml-uiuc-jlu/geom-gcn/raw/master/splits/"
	GeomGCNDataBase   = "https://github.com/graphdml-uiuc-jlu/geom-gcn/raw/master/new_data/"
	HeterophilousBase = "https://github.com/yandex-research/heterophilous-graphs/raw/main/data/"
	// GoogleDriveURL is the download address of a Google Drive file id: the
	// GraphSAINT authors host Flickr there.
	GoogleDriveURL = "https://drive.usercontent.google.com/download?id=%s&confirm=t"
)

// Loader names the reader of a dataset's graph files.
type Loader string

// The loaders, one per upstream format (implemented by package graphio).
const (
	// LoaderPlanetoid reads planetoid/ind.NAME.* (graphio.ReadPlanetoid).
	LoaderPlanetoid Loader = "planetoid"
	// LoaderGeomGCN reads geom-gcn/new_data/NAME/ (graphio.ReadGeomGCN).
	LoaderGeomGCN Loader = "geom-gcn"
	// LoaderHeterophilous reads heterophilous-graphs/NAME.npz
	// (graphio.ReadHeterophilous).
	LoaderHeterophilous Loader = "heterophilous"
	// LoaderHeterophilousDirected reads heterophilous-graphs/NAME.npz whose
	// edges are directed links (graphio.ReadHeterophilousDirected): Adj is
	// their symmetrisation and Graph.Out keeps the direction.
	LoaderHeterophilousDirected Loader = "heterophilous-directed"
	// LoaderGraphSAINT reads graphsaint/NAME/ (graphio.ReadGraphSAINT).
	LoaderGraphSAINT Loader = "graphsaint"
)

// SplitSource says where a dataset's train/validation/test splits come from.
type SplitSource string

// The split sources.
const (
	// SplitsGeomGCN: the 10 Geom-GCN split files geom-gcn/splits/
	// NAME_split_0.6_0.2_{0..9}.npz (48%/32%/20% per class).
	SplitsGeomGCN SplitSource = "geom-gcn"
	// SplitsInFile: the masks stored in the dataset's own npz (10 splits).
	SplitsInFile SplitSource = "npz-masks"
	// SplitsGraphSAINT: GraphSAINT's single split in role.json.
	SplitsGraphSAINT SplitSource = "graphsaint-role"
)

// Metric is the evaluation measure a dataset's results are reported in.
type Metric string

// The metrics.
const (
	// Accuracy is the fraction of correctly classified test nodes.
	Accuracy Metric = "accuracy"
	// ROCAUC is the area under the ROC curve of the positive class; the
	// heterophily benchmark of Platonov et al. reports it for its binary
	// datasets (minesweeper, tolokers).
	ROCAUC Metric = "rocauc"
)

// File is one upstream file of a dataset.
type File struct {
	// Path is the file's path relative to the mirror root, with forward
	// slashes (e.g. "planetoid/ind.cora.x").
	Path string
	// URL is the canonical download address.
	URL string
	// SHA256 is the published SHA-256 in hex; empty when none is published.
	SHA256 string
	// GitBlobSHA1 is the Git blob id the upstream repository publishes for
	// the file, used when SHA256 is empty; empty when unknown.
	GitBlobSHA1 string
}

// Entry describes one dataset of the registry.
type Entry struct {
	// Name is the registry name ("cora").
	Name string
	// Description is a one-line description.
	Description string
	// Nodes and Classes are the expected sizes (static metadata).
	Nodes, Classes int
	// Metric is the evaluation metric results are reported in.
	Metric Metric
	// Loader reads the graph files.
	Loader Loader
	// Source is the name of the dataset in its upstream files ("film" for
	// actor, "chameleon_filtered" for chameleon-filtered).
	Source string
	// Splits is where the splits come from.
	Splits SplitSource
	// Paper is true for the ten datasets of the PCGCN paper.
	Paper bool
	// Files lists every file Load reads: the graph files, then the split
	// files when they are separate.
	Files []File
}

// Names returns the registry names in registry order (the paper's datasets
// first).
func Names() []string {
	es := All()
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return names
}

// Lookup returns the entry of a registry name. An unknown name gives an error
// listing the valid names.
func Lookup(name string) (Entry, error) {
	for _, e := range All() {
		if e.Name == name {
			return e, nil
		}
	}
	valid := Names()
	sort.Strings(valid)
	return Entry{}, fmt.Errorf("%w %q; valid names: %s", ErrUnknownDataset, name, strings.Join(valid, ", "))
}

// DirectedTwin returns the registry dataset that holds name's graph with its
// links' direction (the same nodes, features, labels and splits:
// "chameleon" → "chameleon-directed"), and whether there is one.
func DirectedTwin(name string) (string, bool) {
	if IsPath(name) || strings.HasSuffix(name, directedSuffix) {
		return "", false
	}
	twin := name + directedSuffix
	if _, err := Lookup(twin); err != nil {
		return "", false
	}
	return twin, true
}

// directedSuffix ends the names of the directed twins (models.DirectedSuffix
// reads it the same way when it picks presets).
const directedSuffix = "-directed"

// All returns every registry entry, freshly built (callers may modify it).
func All() []Entry {
	sums := publishedSHA256()
	blobs := gitBlobSHA1()
	file := func(path, url string) File {
		return File{Path: path, URL: url, SHA256: sums[path], GitBlobSHA1: blobs[path]}
	}
	planetoid := func(name string) []File {
		var fs []File
		for _, ext := range []string{"x", "y", "tx", "ty", "allx", "ally", "graph", "test.index"} {
			base := "ind." + name + "." + ext
			fs = append(fs, file("planetoid/"+base, PlanetoidBase+base))
		}
		return fs
	}
	geomData := func(name string) []File {
		var fs []File
		for _, base := range []string{"out1_graph_edges.txt", "out1_node_feature_label.txt"} {
			rel := name + "/" + base
			fs = append(fs, file("geom-gcn/new_data/"+rel, GeomGCNDataBase+rel))
		}
		return fs
	}
	geomSplits := func(name string) []File {
		var fs []File
		for i := 0; i < 10; i++ {
			base := fmt.Sprintf("%s_split_0.6_0.2_%d.npz", name, i)
			fs = append(fs, file("geom-gcn/splits/"+base, GeomGCNSplitsBase+base))
		}
		return fs
	}
	npz := func(name string) []File {
		base := name + ".npz"
		return []File{file("heterophilous-graphs/"+base, HeterophilousBase+base)}
	}
	saint := func(name string, ids [4]string) []File {
		var fs []File
		for i, base := range []string{"adj_full.npz", "feats.npy", "class_map.json", "role.json"} {
			fs = append(fs, file("graphsaint/"+name+"/"+base, fmt.Sprintf(GoogleDriveURL, ids[i])))
		}
		return fs
	}
	citation := func(name, desc string, nodes, classes int) Entry {
		return Entry{Name: name, Description: desc, Nodes: nodes, Classes: classes, Metric: Accuracy,
			Loader: LoaderPlanetoid, Source: name, Splits: SplitsGeomGCN, Paper: true,
			Files: append(planetoid(name), geomSplits(name)...)}
	}
	webkb := func(name, source, desc string, nodes, classes int) Entry {
		return Entry{Name: name, Description: desc, Nodes: nodes, Classes: classes, Metric: Accuracy,
			Loader: LoaderGeomGCN, Source: source, Splits: SplitsGeomGCN, Paper: true,
			Files: append(geomData(source), geomSplits(source)...)}
	}
	hetero := func(name, source, desc string, nodes, classes int, metric Metric, paper bool) Entry {
		return Entry{Name: name, Description: desc, Nodes: nodes, Classes: classes, Metric: metric,
			Loader: LoaderHeterophilous, Source: source, Splits: SplitsInFile, Paper: paper,
			Files: npz(source)}
	}
	// directed: the same nodes, features, labels and masks as the undirected
	// file, with each Wikipedia link kept once in its direction
	directed := func(name, source, desc string, nodes int) Entry {
		e := hetero(name, source, desc, nodes, 5, Accuracy, false)
		e.Loader = LoaderHeterophilousDirected
		return e
	}
	return []Entry{
		citation("cora", "Cora citation graph (Planetoid), bag-of-words features, Geom-GCN splits", 2708, 7),
		citation("citeseer", "CiteSeer citation graph (Planetoid), bag-of-words features, Geom-GCN splits", 3327, 6),
		citation("pubmed", "PubMed diabetes citation graph (Planetoid), TF-IDF features, Geom-GCN splits", 19717, 3),
		hetero("chameleon", "chameleon", "Wikipedia chameleon page network (heterophilous-graphs npz, Geom-GCN masks)", 2277, 5, Accuracy, true),
		hetero("squirrel", "squirrel", "Wikipedia squirrel page network (heterophilous-graphs npz, Geom-GCN masks)", 5201, 5, Accuracy, true),
		webkb("actor", "film", "Actor co-occurrence network (Geom-GCN film), Geom-GCN splits", 7600, 5),
		webkb("cornell", "cornell", "WebKB Cornell web pages (Geom-GCN), Geom-GCN splits", 183, 5),
		webkb("texas", "texas", "WebKB Texas web pages (Geom-GCN), Geom-GCN splits", 183, 5),
		webkb("wisconsin", "wisconsin", "WebKB Wisconsin web pages (Geom-GCN), Geom-GCN splits", 251, 5),
		{Name: "flickr", Description: "Flickr image graph (GraphSAINT), GraphSAINT's split", Nodes: 89250, Classes: 7,
			Metric: Accuracy, Loader: LoaderGraphSAINT, Source: "flickr", Splits: SplitsGraphSAINT, Paper: true,
			// Google Drive ids of GraphSAINT's Flickr files as listed by
			// PyG's torch_geometric/datasets/flickr.py.
			Files: saint("flickr", [4]string{"1crmsTbd1-2sEXsGwa2IKnIB7Zd3TmUsy", "1join-XdvX3anJU_MLVtick7MgeAQiWIZ",
				"1uxIkbtg5drHTsKt-PAsZZ4_yJmgFmle9", "1htXCtuktuCW8TR8KiKfrFDAxUgekQoV7"})},
		hetero("chameleon-filtered", "chameleon_filtered", "Chameleon with duplicate nodes removed (Platonov et al. 2023)", 890, 5, Accuracy, false),
		hetero("squirrel-filtered", "squirrel_filtered", "Squirrel with duplicate nodes removed (Platonov et al. 2023)", 2223, 5, Accuracy, false),
		hetero("minesweeper", "minesweeper", "Minesweeper grid graph, binary (Platonov et al. 2023)", 10000, 2, ROCAUC, false),
		hetero("tolokers", "tolokers", "Toloka crowd-worker graph, binary (Platonov et al. 2023)", 11758, 2, ROCAUC, false),
		directed("chameleon-directed", "chameleon_directed", "Chameleon with its directed Wikipedia links (the Geom-GCN family's graph), Geom-GCN masks", 2277),
		directed("squirrel-directed", "squirrel_directed", "Squirrel with its directed Wikipedia links (the Geom-GCN family's graph), Geom-GCN masks", 5201),
		directed("chameleon-filtered-directed", "chameleon_filtered_directed", "Chameleon-filtered with its directed Wikipedia links", 890),
		directed("squirrel-filtered-directed", "squirrel_filtered_directed", "Squirrel-filtered with its directed Wikipedia links", 2223),
	}
}

// GraphFiles returns the files the graph loader reads (everything but the
// separate split files).
func (e Entry) GraphFiles() []File {
	var fs []File
	for _, f := range e.Files {
		if !isSplitFile(f) {
			fs = append(fs, f)
		}
	}
	return fs
}

// SplitFiles returns the separate split files, in split order (empty when
// the splits are inside the graph files).
func (e Entry) SplitFiles() []File {
	var fs []File
	for _, f := range e.Files {
		if isSplitFile(f) {
			fs = append(fs, f)
		}
	}
	return fs
}

func isSplitFile(f File) bool { return strings.HasPrefix(f.Path, "geom-gcn/splits/") }
