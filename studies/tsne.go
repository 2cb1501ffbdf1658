package studies

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/pcgcn/pcgcn/autograd"
	"github.com/pcgcn/pcgcn/experiments"
	"github.com/pcgcn/pcgcn/manifold"
	"github.com/pcgcn/pcgcn/report"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/train"
)

// tsneStudy is fig:tsne1-2: the t-SNE of the last hidden layer of GCN,
// LINKX and PCGCN, measured by silhouette scores.
func tsneStudy() study {
	return study{name: "tsne", help: "t-SNE of last-layer embeddings with silhouette scores",
		title: "t-SNE of last-layer embeddings (fig:tsne1, fig:tsne2)", cells: tsneCells, section: renderTSNE,
		outputs: tsneOutputs}
}

// tsneModelCells train GCN, LINKX and PCGCN on split 0 of the datasets and
// keep t-SNE coordinates of their last hidden layer.
func tsneModelCells(datasets []string) []experiments.Cell {
	var cells []experiments.Cell
	for _, d := range datasets {
		for _, m := range []string{"gcn", "linkx", "pcgcn"} {
			cells = append(cells, experiments.Cell{Study: "tsne", Dataset: d, Model: m, Splits: []int{0}}.WithOpt(optEmbed, true))
		}
	}
	return cells
}

func tsneDatasets(p *plan) []string { return p.datasets([]string{"chameleon", "squirrel"}) }

func tsneCells(p *plan) []experiments.Cell { return tsneModelCells(tsneDatasets(p)) }

// tsneOptions are the t-SNE settings (fewer iterations in quick mode).
func (p *plan) tsneOptions() manifold.Options {
	o := manifold.Options{Seed: 1, Threads: p.opt.Threads}
	if p.opt.Quick {
		o.Iterations = quickTSNEIterations
	}
	return o
}

// embed maps an embedding to t-SNE points and measures class separation:
// the silhouette by class of the embedding itself and of the 2-D points.
func (p *plan) embed(emb *tensor.Dense, y, test []int32) (*tensor.Dense, map[string]float64, error) {
	xy, err := manifold.TSNE(emb, p.tsneOptions())
	if err != nil {
		return nil, nil, err
	}
	// over every node, and over the test nodes alone: training nodes are
	// fitted to their labels, so only the test nodes show whether a model
	// separates classes it was not told
	yt := make([]int32, len(test))
	for i, v := range test {
		yt[i] = y[v]
	}
	return xy, map[string]float64{
		"silhouette_embedding":      manifold.Silhouette(emb, y, p.opt.Threads),
		"silhouette_tsne":           manifold.Silhouette(xy, y, p.opt.Threads),
		"silhouette_embedding_test": manifold.Silhouette(rowsOf(emb, test), yt, p.opt.Threads),
		"silhouette_tsne_test":      manifold.Silhouette(rowsOf(xy, test), yt, p.opt.Threads),
	}, nil
}

// rowsOf returns the rows idx of m.
func rowsOf(m *tensor.Dense, idx []int32) *tensor.Dense {
	out := tensor.NewDense(len(idx), m.Cols)
	for i, r := range idx {
		copy(out.Row(i), m.Row(int(r)))
	}
	return out
}

// featurePoints returns (and caches under the results directory) the t-SNE
// of a dataset's input features, the paper's "initial feature" panel.
func (p *plan) featurePoints(d string) ([][2]float32, map[string]float64, error) {
	path := filepath.Join(p.runner.Dir, "tsne", "features__"+d+".json")
	var cached struct {
		Points [][2]float32       `json:"points"`
		Extra  map[string]float64 `json:"extra"`
	}
	if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &cached) == nil && len(cached.Points) > 0 && hasKey(cached.Extra, "silhouette_embedding_test") {
		return cached.Points, cached.Extra, nil
	}
	g, err := p.graph(d)
	if err != nil {
		return nil, nil, err
	}
	xy, extra, err := p.embed(g.X.ToDense(), g.Y, g.Splits[0].Test)
	if err != nil {
		return nil, nil, err
	}
	cached.Points = make([][2]float32, xy.Rows)
	for i := range cached.Points {
		cached.Points[i] = [2]float32{xy.At(i, 0), xy.At(i, 1)}
	}
	cached.Extra = extra
	b, _ := json.Marshal(cached)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, nil, err
	}
	return cached.Points, extra, experiments.WriteFileAtomic(path, b)
}

func renderTSNE(p *plan, w io.Writer) error {
	fmt.Fprintln(w, "The paper's claim: GCN shows some clusters without clear boundaries, LINKX clearer ones with overlap, and PCGCN distinct clusters. We measure it: the silhouette score by class (−1…1, higher = classes better separated) of each model's last hidden layer and of its 2-D t-SNE, over every node and over the test nodes alone (training nodes are fitted to their labels, so only test nodes show separation the model was not told); the verdict uses the test nodes' embedding silhouette, with differences under 0.02 called a tie.")
	fmt.Fprintln(w)
	for _, d := range tsneDatasets(p) {
		rs := p.results(tsneModelCells([]string{d}))
		if len(rs) < 3 {
			pendingOn(w, d, "tsne")
			continue
		}
		g, err := p.graph(d)
		if err != nil {
			return err
		}
		fpts, fx, err := p.featurePoints(d)
		if err != nil {
			return err
		}
		panels := []report.ScatterPanel{{Title: "initial features", XY: fpts, Labels: g.Y,
			Note: fmt.Sprintf("silhouette %.3f (test nodes %s)", fx["silhouette_embedding"], num3(fx, "silhouette_embedding_test"))}}
		fmt.Fprintf(w, "### %s\n\n| representation | silhouette, embedding: all nodes | test nodes | silhouette, t-SNE 2-D: all nodes | test nodes | test acc. split 0 |\n| --- | ---: | ---: | ---: | ---: | ---: |\n", d)
		fmt.Fprintf(w, "| initial features | %s | %s | %s | %s | — |\n", num3(fx, "silhouette_embedding"), num3(fx, "silhouette_embedding_test"), num3(fx, "silhouette_tsne"), num3(fx, "silhouette_tsne_test"))
		sil := map[string]float64{}
		for _, r := range rs {
			s := r.PerSplit[0]
			if v, ok := s.Extra["silhouette_embedding_test"]; ok {
				sil[r.Cell.Model] = v
			}
			panels = append(panels, report.ScatterPanel{Title: r.Cell.Model, XY: s.Points, Labels: g.Y,
				Note: fmt.Sprintf("silhouette %.3f (test nodes %s)", s.Extra["silhouette_embedding"], num3(s.Extra, "silhouette_embedding_test"))})
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.2f |\n", r.Cell.Model, num3(s.Extra, "silhouette_embedding"), num3(s.Extra, "silhouette_embedding_test"),
				num3(s.Extra, "silhouette_tsne"), num3(s.Extra, "silhouette_tsne_test"), s.Test)
		}
		path, link := p.figure("tsne_" + d + ".png")
		if err := report.ScatterGrid(path, d+": t-SNE of node representations, coloured by class", "t-SNE 1", "t-SNE 2", panels); err != nil {
			return err
		}
		fmt.Fprintf(w, "\n![%s t-SNE](%s)\n\n", d, link)
		verdict := tsneVerdict(rs[0].PerSplit[0].Extra, sil)
		fmt.Fprintf(w, "**Verdict on %s:** %s.\n\n", d, verdict)
	}
	return nil
}

// tsneMargin is the silhouette difference below which two models are
// reported as separating the classes equally well.
const tsneMargin = 0.02

// tsneVerdict judges the claim on the test nodes' embedding silhouettes
// (sil, by model), and not at all while one of the three models lacks one.
func tsneVerdict(extra map[string]float64, sil map[string]float64) string {
	if !hasKey(extra, "silhouette_embedding_test") || !hasKey(sil, "pcgcn") || !hasKey(sil, "gcn") || !hasKey(sil, "linkx") {
		return "these cells predate the test-node silhouette; rerun `pcgcn reproduce --only tsne` after removing results/tsne"
	}
	pc, best, bestModel := sil["pcgcn"], math.Inf(-1), ""
	for _, m := range []string{"gcn", "linkx"} {
		if sil[m] > best {
			best, bestModel = sil[m], m
		}
	}
	switch {
	case pc > best+tsneMargin:
		return fmt.Sprintf("on the test nodes PCGCN separates the classes best (silhouette %.3f against %.3f for %s), so the claim holds here", pc, best, bestModel)
	case pc >= best-tsneMargin:
		return fmt.Sprintf("on the test nodes PCGCN and %s separate the classes about equally (silhouette %.3f against %.3f, within %.2f), so the claim is not borne out here", bestModel, pc, best, tsneMargin)
	}
	return fmt.Sprintf("on the test nodes %s separates the classes better than PCGCN (silhouette %.3f against %.3f), so the claim does not hold here", bestModel, best, pc)
}

// optEmbed is the t-SNE cells' setting: keep the 2-D points of the trained
// model's last hidden representation and their measurements.
const optEmbed = "embed"

// tsneOutputs keeps, for a cell that asks for them, the t-SNE points of the
// trained model's embedding and their silhouette scores (see embed).
func tsneOutputs(p *plan, c experiments.Cell, r *train.Result, sr *experiments.SplitResult) error {
	if !flag(c, optEmbed) {
		return nil
	}
	t := autograd.NewTape(tensor.Exec{Threads: p.runner.Threads})
	t.SetNoGrad(true)
	out := r.Model.Forward(t)
	if out.Embedding == nil {
		return fmt.Errorf("model gives no embedding")
	}
	xy, extra, err := p.embed(out.Embedding.Value, r.Data.Graph.Y, r.Data.Test)
	if err != nil {
		return err
	}
	sr.Points = make([][2]float32, xy.Rows)
	for i := range sr.Points {
		sr.Points[i] = [2]float32{xy.At(i, 0), xy.At(i, 1)}
	}
	if sr.Extra == nil {
		sr.Extra = map[string]float64{}
	}
	for k, v := range extra {
		sr.Extra[k] = v
	}
	return nil
}
