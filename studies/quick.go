package studies

// Quick mode (Options.Quick) runs the whole pipeline in minutes on the small
// WebKB graphs, for checking, not for numbers. Every setting it changes is
// here but the complexity study's, which are in studies/complexity/doc.go.
const (
	// quickSplits is how many of Options.Splits run (the first ones).
	quickSplits = 2
	// quickEpochs and quickPatience are the training budget.
	quickEpochs, quickPatience = 60, 30
	// quickDir is the directory under Options.ResultsDir that holds the
	// cells and the reports, apart from a full run's.
	quickDir = "quick"
	// quickTSNEIterations is the t-SNE's iterations.
	quickTSNEIterations = 300
)

// quickDatasets are the graphs of every study, unless Options.Datasets
// names others.
func quickDatasets() []string { return []string{"cornell", "texas", "wisconsin"} }

// quickModels are the main table's models, unless Options.Models names
// others.
func quickModels() []string { return []string{"pcgcn", "gcn", "gat", "mlp", "linkx"} }

// quickLabelRateSizes are the label-rate study's training labels per class.
func quickLabelRateSizes() []int { return []int{20, 5} }
