package complexity

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/pcgcn/pcgcn/report"
)

// Render is the complexity study's section of docs/report.md,
// from whatever records are saved: the protocol, a table against n and one
// against the degree, the log-log slopes, the figures and the verdicts.
func Render(p Env, w io.Writer) error {
	fmt.Fprintln(w, "The paper's claim (Section \"Complexity\"): one PCGCN layer costs O(|E|(c+d) + |T|fd + nd + nd²), \"which still linearly depends on the network size n\", while the pinning control relationships built between nodes and controllers \"introduces additional space overhead\".")
	fmt.Fprintln(w)
	recs, err := loadComplexity(p.complexityDir())
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		fmt.Fprintln(w, "_Not measured yet: `pcgcn reproduce --only complexity`._")
		return nil
	}
	g := p.complexityGrid()
	t := newComplexityTables(g, recs)
	t.protocol(w, p)
	fmt.Fprintf(w, "Seconds per training epoch and peak memory (MiB) against n, at average degree %g:\n\n", g.degree)
	t.table(w, "n", t.nRows())
	fmt.Fprintf(w, "Against the average degree, at n = %s:\n\n", grouped(g.nodes))
	t.table(w, "avg. degree", t.degreeRows())
	t.footnotes(w)
	fits := t.fits()
	fmt.Fprintln(w, fitTable(fits, g))
	if err := t.figures(w, p); err != nil {
		return err
	}
	fmt.Fprintln(w, linearVerdict(fits, g))
	fmt.Fprintln(w)
	fmt.Fprintln(w, t.spaceVerdict(fits))
	if s := t.referenceSentence(); s != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, s)
	}
	return nil
}

// complexityTables indexes the saved records for the section.
type complexityTables struct {
	g    complexityGrid
	recs []complexityRecord
	by   map[string]complexityRecord // by file name
	// notes are the footnotes of the tables, in order, and noteOf numbers
	// each note's text.
	notes  []string
	noteOf map[string]int
	stale  int
}

func newComplexityTables(g complexityGrid, recs []complexityRecord) *complexityTables {
	t := &complexityTables{g: g, recs: recs, by: map[string]complexityRecord{}, noteOf: map[string]int{}}
	for _, r := range recs {
		t.by[r.file()] = r
	}
	return t
}

// series are the columns of the tables and the lines of the figures:
// each model, ours then the reference.
func (t *complexityTables) series() [][2]string {
	var out [][2]string
	for _, m := range t.g.allModels {
		for _, impl := range t.g.implementations {
			out = append(out, [2]string{impl, m})
		}
	}
	return out
}

// seriesName names an implementation's model: "PCGCN (ours)".
func seriesName(impl, model string) string {
	name := strings.ToUpper(model)
	if impl == implPyTorch {
		return name + " (PyTorch)"
	}
	return name + " (ours)"
}

// get returns the record of impl's model on (nodes, degree), if saved.
func (t *complexityTables) get(impl, model string, nodes int, degree float64) (complexityRecord, bool) {
	r, ok := t.by[complexityRecord{Impl: impl, Model: model, Nodes: nodes, AvgDegree: degree}.file()]
	return r, ok
}

// complexityRow is a row of a table: a graph.
type complexityRow struct {
	label  string
	nodes  int
	degree float64
}

// nRows are the graphs of the sweep over n: the grid's and any other saved
// at its degree, by n.
func (t *complexityTables) nRows() []complexityRow {
	var rows []complexityRow
	for _, n := range sweep(t, func(_ int, d float64) bool { return d == t.g.degree }, func(n int, _ float64) int { return n }) {
		rows = append(rows, complexityRow{label: grouped(n), nodes: n, degree: t.g.degree})
	}
	return rows
}

// degreeRows are the graphs of the sweep over the degree at the grid's n.
func (t *complexityTables) degreeRows() []complexityRow {
	var rows []complexityRow
	for _, d := range sweep(t, func(n int, _ float64) bool { return n == t.g.nodes }, func(_ int, d float64) float64 { return d }) {
		rows = append(rows, complexityRow{label: fmt.Sprintf("%g", d), nodes: t.g.nodes, degree: d})
	}
	return rows
}

// sweep returns, sorted, the distinct values of key over the graphs of the
// grid and of the saved records that keep selects.
func sweep[K cmp.Ordered](t *complexityTables, keep func(nodes int, degree float64) bool, key func(nodes int, degree float64) K) []K {
	set := map[K]bool{}
	for _, pt := range t.g.points {
		if keep(pt.nodes, pt.degree) {
			set[key(pt.nodes, pt.degree)] = true
		}
	}
	for _, r := range t.recs {
		if keep(r.Nodes, r.AvgDegree) {
			set[key(r.Nodes, r.AvgDegree)] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// table writes one table: a row per graph, per series the seconds per
// epoch and the peak MiB, or the status with a footnote.
func (t *complexityTables) table(w io.Writer, first string, rows []complexityRow) {
	head := []string{first, "edges"}
	for _, s := range t.series() {
		head = append(head, seriesName(s[0], s[1])+" s/epoch", "MiB")
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat(" ---: |", len(head)))
	for _, row := range rows {
		cells := []string{row.label, grouped(complexityPoint{nodes: row.nodes, degree: row.degree}.edges())}
		for _, s := range t.series() {
			r, ok := t.get(s[0], s[1], row.nodes, row.degree)
			if !ok {
				cells = append(cells, "—"+t.missingNote(s[0], s[1], row), "—")
				continue
			}
			cells = append(cells, t.cells(r)...)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	fmt.Fprintln(w)
}

// missingNote is the footnote mark of a cell without a record: a run of
// the grid not measured yet, or one the grid does not make.
func (t *complexityTables) missingNote(impl, model string, row complexityRow) string {
	text := "not in the study's grid: this model is not run on this graph"
	if t.g.plans(impl, model, row.nodes, row.degree) {
		text = "not measured yet: `pcgcn reproduce --only complexity` resumes the study and measures it"
	}
	return t.noteText(text)
}

// cells are a record's two cells: time and memory.
func (t *complexityTables) cells(r complexityRecord) []string {
	mark := ""
	if r.stale() || !r.sameProtocol(t.g.want(r.Impl, r.Model, complexityPoint{nodes: r.Nodes, degree: r.AvgDegree})) {
		mark = "†"
		t.stale++
	}
	switch r.Status {
	case StatusOK:
		return []string{secondsText(r.MsPerEpoch/1000) + mark, mib(r.PeakRSSMiB)}
	case StatusMemoryCap:
		return []string{"mem. cap" + t.note(r) + mark, "> " + mib(r.MemoryCapMiB)}
	case StatusTimeout:
		return []string{"timeout" + t.note(r) + mark, "—"}
	case StatusUnavailable:
		return []string{"n/a" + t.note(r), "—"}
	}
	return []string{"error" + t.note(r) + mark, "—"}
}

// note numbers a record's message as a footnote, once per distinct text.
func (t *complexityTables) note(r complexityRecord) string {
	text := r.Message
	if r.Status != StatusUnavailable {
		text = fmt.Sprintf("%s, n = %s, degree %g: %s", seriesName(r.Impl, r.Model), grouped(r.Nodes), r.AvgDegree, r.Message)
	} else {
		text = seriesName(r.Impl, r.Model) + ": " + text
	}
	return t.noteText(text)
}

// noteText numbers a footnote's text, once per distinct text.
func (t *complexityTables) noteText(text string) string {
	i, ok := t.noteOf[text]
	if !ok {
		t.notes = append(t.notes, text)
		i = len(t.notes)
		t.noteOf[text] = i
	}
	return superscript(i)
}

// footnotes writes the tables' footnotes.
func (t *complexityTables) footnotes(w io.Writer) {
	for i, n := range t.notes {
		fmt.Fprintf(w, "%s %s  \n", superscript(i+1), n)
	}
	if t.stale > 0 {
		fmt.Fprintf(w, "† measured on another machine, by a build of other numerics, or under another protocol than this invocation's (`--refresh` measures them again).  \n")
	}
	if len(t.notes) > 0 || t.stale > 0 {
		fmt.Fprintln(w)
	}
}

// protocol writes how the numbers were measured: the grid's protocol,
// with the threads, caps and machines of the records themselves.
func (t *complexityTables) protocol(w io.Writer, p Env) {
	g := t.g
	threads, mem, tc, machines := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range t.recs {
		threads[fmt.Sprint(r.Threads)] = true
		mem[mib(r.MemoryCapMiB)+" MiB"] = true
		tc[report.FormatDuration(time.Duration(r.TimeCapSeconds*float64(time.Second)))] = true
		machines[r.Machine] = true
	}
	set := func(m map[string]bool) string { return strings.Join(slices.Sorted(maps.Keys(m)), " or ") }
	epochs := fmt.Sprintf("the median of %d timed epochs after %d untimed", g.epochs, g.warmup)
	if g.bigEpochs != g.epochs || g.bigWarmup != g.warmup {
		epochs += fmt.Sprintf("; from n = %s up %d after %d", sci(g.big), g.bigEpochs, g.bigWarmup)
	}
	fmt.Fprintf(w, "Measured: seconds per training epoch (forward, loss, backward and Adam step, full batch: `pcgcn bench`, %s) and the peak resident memory of the process, "+
		"for PCGCN and GCN with the Chameleon preset (hidden 64, 2 layers), on contextual SBM graphs (`pcgcn generate csbm`: %d dense features, %d classes, edge homophily %g, seed %d, training on half of each class), "+
		"each run in a process of its own with %s threads, killed above %s or after %s; beside them the PyTorch reference (`../shared/bench/bench_graph.py`: the same models and graph, training on a random half of the nodes, one untimed epoch). "+
		"Machine: %s. The records are in `%s/`.\n\n",
		epochs, complexityFeatures, complexityClasses, complexityHomophily, complexitySeed,
		set(threads), set(mem), set(tc), set(machines), filepath.Join(p.ResultsDir, "complexity"))
}

// mib writes a number of MiB, rounded, with thousands separators.
func mib(v float64) string { return grouped(int(v + 0.5)) }
