package experiments

// PaperDatasets are the paper's datasets available in the offline mirror, in
// the order of the paper's main table.
func PaperDatasets() []string {
	return []string{"chameleon", "squirrel", "actor", "texas", "wisconsin", "cornell", "cora", "citeseer"}
}

// ExtraDatasets are the heterophily-benchmark graphs beyond the paper.
func ExtraDatasets() []string {
	return []string{"chameleon-filtered", "squirrel-filtered", "minesweeper", "tolokers"}
}

// ExtraModels are the models run on the extra datasets by default: PCGCN
// and a cheap, strong baseline of each kind (no graph, spectral filter,
// propagation, adjacency-row MLP). Running all sixteen there would cost more
// than the whole paper table (Minesweeper and Tolokers have 10–12k nodes).
func ExtraModels() []string { return []string{"pcgcn", "mlp", "gcn", "gprgnn", "linkx"} }

// AllSplits returns 0..n-1.
func AllSplits(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// MainCells is the main table: every model on every dataset, default
// configuration (the dataset's preset). The cells keep per-node test
// outputs, from which the homophily-bucket and label-distance studies are
// computed without training again.
func MainCells(models, datasets []string, splits []int) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for _, m := range models {
			cells = append(cells, Cell{Study: "main", Dataset: d, Model: m, DropClass: -1, Splits: splits, Collect: true})
		}
	}
	return cells
}

// HeterophilousDatasets are the six heterophilous graphs of fig:hete.
func HeterophilousDatasets() []string {
	return []string{"chameleon", "squirrel", "actor", "texas", "wisconsin", "cornell"}
}

// TSNECells train GCN, LINKX and PCGCN on split 0 of Chameleon and Squirrel
// and keep t-SNE coordinates of their last hidden layer (fig:tsne1-2).
func TSNECells(datasets []string) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for _, m := range []string{"gcn", "linkx", "pcgcn"} {
			cells = append(cells, Cell{Study: "tsne", Dataset: d, Model: m, DropClass: -1, Splits: []int{0}, Embed: true})
		}
	}
	return cells
}

// LabelRateSizes is the grid of training labels per class of fig:label.
func LabelRateSizes() []int { return []int{70, 50, 30, 20, 10, 5, 2} }

// LabelRateCells train each model with few labels per class on random splits.
func LabelRateCells(models, datasets []string, sizes, splits []int) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for _, k := range sizes {
			for _, m := range models {
				cells = append(cells, Cell{Study: "labelrate", Dataset: d, Model: m, DropClass: -1, Splits: splits, LabelsPerClass: k})
			}
		}
	}
	return cells
}

// MissingClassCells remove each class's training labels in turn
// (tb:missclass-1/2; the paper's "dataset-i" is class i−1 here).
func MissingClassCells(models, datasets []string, classes int, splits []int) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for c := 0; c < classes; c++ {
			for _, m := range models {
				cells = append(cells, Cell{Study: "missing", Dataset: d, Model: m, DropClass: c, Splits: splits})
			}
		}
	}
	return cells
}

// AblationVariants are the rows of Table "Ablation study".
func AblationVariants() []Variant {
	return []Variant{
		{"no_hom_p", map[string]string{"no_hom_p": "true"}, "w/o homophily propagation ÂS"},
		{"no_het_p", map[string]string{"no_het_p": "true"}, "w/o heterophily propagation (I−Â)S"},
		{"no_mp", map[string]string{"no_mp": "true"}, "w/o message passing: ÂHW replaced by HW"},
		{"no_cl", map[string]string{"no_cl": "true"}, "w/o the consistency loss"},
	}
}

// PartialControlVariants are the rows of Table "full control vs partial
// control": 10% of the nodes uncontrolled, chosen three ways.
func PartialControlVariants() []Variant {
	var vs []Variant
	for _, by := range []string{"random", "min-degree", "max-degree"} {
		vs = append(vs, Variant{by, map[string]string{"uncontrolled": "0.1", "uncontrolled_by": by}, "10% uncontrolled by " + by})
	}
	return vs
}

// MatchingFractions are the fractions of unlabelled nodes pinned to their
// true class in fig:corr.
func MatchingFractions() []string { return []string{"0", "0.2", "0.4", "0.6", "0.8", "1"} }

// VariantCells runs PCGCN under each variant on each dataset.
func VariantCells(study string, variants []Variant, datasets []string, splits []int) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for _, v := range variants {
			cells = append(cells, Cell{Study: study, Dataset: d, Model: "pcgcn", Variant: v.Name, Sets: v.Sets, DropClass: -1, Splits: splits})
		}
	}
	return cells
}

// MatchingCells pin growing fractions of unlabelled nodes to their class:
// first as the paper describes (the training nodes' rows of B computed, as
// in training), then, with pinTrain, with the training nodes' rows pinned to
// their labels too (see MatchingPinsTrain).
func MatchingCells(datasets []string, splits []int, pinTrain bool) []Cell {
	var vs []Variant
	for _, f := range MatchingFractions() {
		v := Variant{"pin" + f, map[string]string{"pin_true": f}, ""}
		if pinTrain {
			v.Name += "-train"
			v.Sets["pin_train"] = "true"
		}
		vs = append(vs, v)
	}
	return VariantCells("matching", vs, datasets, splits)
}

// MatchingPinsTrain reports whether a matching cell belongs to the series
// with the training nodes pinned too.
func MatchingPinsTrain(c Cell) bool { return c.Sets["pin_train"] == "true" }

// Variant is a named set of option overrides.
type Variant struct {
	Name string
	Sets map[string]string
	// Why says what the variant tests.
	Why string
}

// FidelityVariants are the readings of the paper compared in docs/fidelity.md.
// The first is the literal reading; each later one changes one choice the
// paper leaves open (or combines the best of them).
func FidelityVariants() []Variant {
	soft := func(tau string, extra ...string) map[string]string {
		m := map[string]string{"bmode": "soft", "tau": tau}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return m
	}
	return []Variant{
		{"literal (hard B)", map[string]string{"bmode": "hard"}, "Eqs. con:rel1-2 as written: one-hot argmax, α gets no gradient through B"},
		{"ste, τ=0.5", map[string]string{"bmode": "ste", "tau": "0.5"}, "straight-through: one-hot forward, softmax(S̃/τ) backward (../shared/bench's default)"},
		{"ste, τ=1", map[string]string{"bmode": "ste", "tau": "1"}, "as above, smoother backward"},
		{"soft, τ=0.5", soft("0.5"), "B = softmax(S̃/τ) in the forward pass: the only reading in which τ matters"},
		{"soft, τ=1", soft("1"), ""},
		{"soft, τ=2", soft("2"), ""},
		{"soft, τ=5", soft("5"), ""},
		{"soft τ=1, layer prototypes", soft("1", "protos", "layer"), "prototypes = class means of each layer's input instead of g(X)"},
		{"soft τ=1, prototypes stop-grad", soft("1", "proto_stop_grad", "true"), "no gradient through the prototypes"},
		{"soft τ=1, raw features", soft("1", "normalize_features", "false"), "no row normalisation of X"},
		{"soft τ=1, −β", soft("1", "beta_scale", "-1"), "opposite sign convention for the control gain"},
		{"soft τ=1, input dropout only", soft("1", "input_dropout_only", "true"), "dropout on X only"},
		{"soft τ=1, α∈(0,1)", soft("1", "alpha_sigmoid", "true"), "α through a sigmoid"},
	}
}

// FidelityCells runs every fidelity variant of PCGCN on the datasets.
func FidelityCells(datasets []string, splits []int) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for _, v := range FidelityVariants() {
			cells = append(cells, Cell{Study: "fidelity", Dataset: d, Model: "pcgcn", Variant: v.Name, Sets: v.Sets, DropClass: -1, Splits: splits})
		}
	}
	return cells
}
