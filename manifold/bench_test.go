package manifold

import (
	"github.com/pcgcn/pcgcn/graphio"
	"github.com/pcgcn/pcgcn/tensor"
	"github.com/pcgcn/pcgcn/testkit"
	"github.com/pcgcn/pcgcn/testkit/datatest"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkTSNE5201 embeds 5,201 points of width 64 (Squirrel's size and the
// width of a last hidden layer) with the default options.
func BenchmarkTSNE5201(b *testing.B) {
	x, lab := testkit.Blobs(5201, 64, 5, 1.5, 1)
	benchTSNE(b, x, lab)
}

// benchTSNE embeds x with the default options once per iteration, reporting
// the seconds of a run and the silhouette of the layout by lab.
func benchTSNE(b *testing.B, x *tensor.Dense, lab []int32) {
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		y, err := TSNE(x, Options{Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/run")
		b.StopTimer()
		b.ReportMetric(Silhouette(y, lab, 0), "silhouette")
		b.StartTimer()
	}
}

// BenchmarkSilhouette5201 scores 5,201 points of width 64.
func BenchmarkSilhouette5201(b *testing.B) {
	x, lab := testkit.Blobs(5201, 64, 5, 1.5, 1)
	for i := 0; i < b.N; i++ {
		Silhouette(x, lab, 0)
	}
}

// BenchmarkTSNERawFeatures embeds the raw bag-of-words features of Chameleon
// (2,277 × 2,325) and Squirrel (5,201 × 2,089) from the dataset mirror:
// randomized PCA to 50 dimensions, then t-SNE with the defaults. It reports
// the silhouette of the layout by class.
func BenchmarkTSNERawFeatures(b *testing.B) {
	dir := datatest.Mirror(b)
	for _, name := range []string{"chameleon", "squirrel"} {
		b.Run(name, func(b *testing.B) {
			g, err := graphio.ReadHeterophilous(filepath.Join(dir, "heterophilous-graphs", name+".npz"))
			if err != nil {
				b.Fatal(err)
			}
			benchTSNE(b, g.X.ToDense(), g.Y)
		})
	}
}
