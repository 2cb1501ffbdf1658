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

// AllSplits returns 0..n-1.
func AllSplits(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// MainCells is the main table: every model on every dataset, default
// configuration (the dataset's preset).
func MainCells(models, datasets []string, splits []int) []Cell {
	var cells []Cell
	for _, d := range datasets {
		for _, m := range models {
			cells = append(cells, Cell{Study: "main", Dataset: d, Model: m, DropClass: -1, Splits: splits})
		}
	}
	return cells
}
