package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// near reports whether got is within tol of want (relative for large
// values).
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

func check(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if !near(got, want, tol) {
		t.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

func TestRanks(t *testing.T) {
	got := Ranks([]float64{70, 80, 70, 60, 80})
	want := []float64{3.5, 1.5, 3.5, 5, 1.5}
	if !slices.Equal(got, want) {
		t.Errorf("Ranks = %v, want %v", got, want)
	}
}

// friedmanS1 is a 12 × 5 table with a tie (dataset 3, models 0 and 2).
// Reference (scipy 1.10.1):
//
//	python3 -c "import numpy as np,scipy.stats as st; S=np.array(S1); r=st.friedmanchisquare(*S.T); n,k=S.shape; F=(n-1)*r.statistic/(n*(k-1)-r.statistic); print(r, F, st.f.sf(F,k-1,(k-1)*(n-1)), np.array([st.rankdata(-x) for x in S]).mean(0))"
var friedmanS1 = [][]float64{{64.29, 55.49, 76.02, 71.73, 86.63}, {41.98, 84.75, 64.83, 61.91, 64.23}, {46.75, 46.68, 76.78, 73.51, 59.95}, {66.23, 62.77, 66.23, 50.9, 81.64}, {66.09, 74.21, 71.78, 49.7, 46.6}, {69.19, 69.99, 74.53, 57.2, 54.13}, {78.92, 56.68, 46.32, 54.91, 45.02}, {67.26, 88.85, 80.78, 63.25, 88.42}, {66.81, 60.8, 65.27, 84.37, 51.31}, {58.54, 53.23, 76.49, 42.78, 49.58}, {43.46, 54.65, 49.32, 50.8, 79.46}, {70.31, 57.13, 43.38, 63.19, 41.5}}

// friedmanS3 is a 9 × 4 table where model 0 is better than model 3 on
// every dataset (same reference one-liner; the pairwise p-values are
// st.wilcoxon(S[:,i], S[:,j]).pvalue for i < j).
var friedmanS3 = [][]float64{{66.1, 67.08, 63.67, 58.47}, {65.11, 61.42, 61.71, 59.83}, {68.24000000000001, 57.46, 64.7, 59.71}, {68.03999999999999, 62.59, 58.86, 61.39}, {68.47, 62.39, 59.54, 62.06}, {63.39, 58.46, 61.18, 57.99}, {60.24, 60.56, 58.6, 56.42}, {61.52, 63.11, 62.69, 59.3}, {63.77, 64.15, 62.15, 59.1}}

func TestFriedmanMatchesScipy(t *testing.T) {
	for _, c := range []struct {
		name          string
		s             [][]float64
		chi, p, f, pf float64
		avg           []float64
	}{
		{"S1 (a tie)", friedmanS1, 3.0962343096234406, 0.5418519666913844, 0.7584793142005243, 0.5579158677247333,
			[]float64{3.0416666666666665, 2.75, 2.4583333333333335, 3.4166666666666665, 3.3333333333333335}},
		{"S3", friedmanS3, 13.933333333333337, 0.0029973163217202506, 8.530612244897965, 0.0004944630145627489,
			[]float64{1.5555555555555556, 2.0, 2.7777777777777777, 3.6666666666666665}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := FriedmanTest(c.s)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "χ²", f.ChiSquare, c.chi, 1e-12)
			check(t, "p", f.P, c.p, 1e-9)
			check(t, "F", f.F, c.f, 1e-12)
			check(t, "p(F)", f.PF, c.pf, 1e-9)
			for m, a := range c.avg {
				check(t, "average rank", f.Ranking.Average[m], a, 1e-12)
			}
			if f.K != len(c.avg) || f.N != len(c.s) || f.DF2 != float64((f.K-1)*(f.N-1)) {
				t.Errorf("K, N, DF2 = %d, %d, %g", f.K, f.N, f.DF2)
			}
		})
	}
}

// TestDemsarExample is Demšar (2006), Sec. 3.2.4: four algorithms on 14
// datasets with average ranks 3.143, 2.000, 2.893, 1.964 give χ²_F = 9.28
// and F_F = 3.69, and the critical differences 1.25 (α = 0.05) and 1.12
// (α = 0.10).
func TestDemsarExample(t *testing.T) {
	chi, f := friedmanStatistics([]float64{3.143, 2.000, 2.893, 1.964}, 14, 1)
	check(t, "χ²", chi, 9.28, 0.005/9.28)
	check(t, "F", f, 3.69, 0.01/3.69)
	for _, c := range []struct{ alpha, cd float64 }{{0.05, 1.25}, {0.10, 1.12}} {
		cd, err := CriticalDifference(4, 14, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(cd-c.cd) > 0.005 {
			t.Errorf("CD(α = %g) = %.4f, want %.2f", c.alpha, cd, c.cd)
		}
	}
}

// TestNemenyiQMatchesDemsar checks the computed q_α against Demšar (2006),
// Table 5(a), k = 2…10, to 0.001 (the table is off in its last digit at
// k = 3 and 7: 2.343 and 2.949 where the studentized range gives 2.3437 and
// 2.9483), and against scipy 1.10.1's studentized range to 1e-5:
//
//	python3 -c "import numpy as np,scipy.stats as st; print([st.studentized_range.ppf(1-a, k, 1e6)/np.sqrt(2) for k in (3, 7, 12) for a in (0.05, 0.1)])"
func TestNemenyiQMatchesDemsar(t *testing.T) {
	table := map[float64][]float64{
		0.05: {1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164},
		0.10: {1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920},
	}
	for alpha, qs := range table {
		for i, want := range qs {
			k := i + 2
			q, err := NemenyiQ(k, alpha)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(q-want) > 0.001 {
				t.Errorf("q(k = %d, α = %g) = %.4f, want %.3f", k, alpha, q, want)
			}
		}
	}
	for _, c := range []struct {
		k        int
		alpha, q float64
	}{{3, 0.05, 2.343700586378409}, {3, 0.10, 2.0522927304967755}, {7, 0.05, 2.9483200175296744}, {7, 0.10, 2.6927321009677594}, {12, 0.05, 3.268003924466142}, {12, 0.10, 3.0296941831785844}} {
		q, err := NemenyiQ(c.k, c.alpha)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(q-c.q) > 1e-5 {
			t.Errorf("q(k = %d, α = %g) = %.6f, scipy %.6f", c.k, c.alpha, q, c.q)
		}
	}
	if _, err := NemenyiQ(1, 0.05); !errors.Is(err, ErrTooFew) {
		t.Errorf("k = 1: %v", err)
	}
	if _, err := NemenyiQ(3, 0); !errors.Is(err, ErrAlpha) {
		t.Errorf("α = 0: %v", err)
	}
}

// Paired samples of 10 splits. Reference (scipy 1.10.1):
//
//	python3 -c "import scipy.stats as st; print(st.wilcoxon(a, b), st.ttest_rel(a, b))"
var (
	pairA = []float64{69.78, 70.22, 70.13, 67.55, 70.15, 72.72, 66.91, 71.72, 70.24, 68.72}
	pairB = []float64{65.78, 68.08, 70.93, 66.44, 68.28, 72.0, 64.89, 70.82, 68.24, 65.56}
)

func TestWilcoxonMatchesScipy(t *testing.T) {
	zeros := func(n int) []float64 { return make([]float64, n) }
	// g: 20 differences without ties; f: 60 (normal approximation).
	g := []float64{1.0447, 1.5429, 0.293, -0.3135, 0.8477, 0.7475, 1.5988, -0.7846, -0.1616, -0.3382, -1.234, 0.6264, 1.0278, -0.2388, 1.8856, 1.3219, 1.1274, 0.9017, 1.4557, -0.832}
	f := []float64{-0.3757, 0.5031, -0.1633, 0.4273, -0.8872, -0.2793, 0.1038, 1.1988, 1.4452, -1.0235, -0.4946, 0.9469, -1.6924, -0.1632, 0.2027, 1.557, 0.9894, -0.0272, -0.0686, 0.0498, 1.8235, -0.128, -0.0037, 0.6526, 0.1792, 0.1027, -0.8141, 0.2885, -0.1436, 1.4661, 0.9531, 0.2759, 0.9684, -0.0399, 1.3521, 0.2946, 0.8834, -0.9909, 0.6467, -1.3882, -1.7353, -0.0045, -0.5999, 0.4641, 2.5448, -0.5317, -0.3239, 0.5054, 0.793, 0.1236, 0.0941, 1.0025, 0.8199, -0.7337, 0.2208, 0.3353, -0.7545, 0.5598, -0.558, 1.2721}
	ties := []float64{1.5, 2.0, -1.0, 2.0, 3.5, 1.0, -0.5, 2.5, 4.0, 1.5, 3.0, -2.0}
	withZeros := []float64{1.5, 0.0, -1.0, 2.0, 3.5, 1.0, 0.0, 2.5, 4.0, 1.5, 3.0, -2.0, 0.5}
	for _, c := range []struct {
		name    string
		x, y    []float64
		stat, p float64
		exact   bool
		z       float64
	}{
		// st.wilcoxon(a, b)
		{"exact, n = 10", pairA, pairB, 2, 0.005859375, true, 0},
		// st.wilcoxon(g)
		{"exact, n = 20", g, zeros(20), 44, 0.021484375, true, 0},
		// st.wilcoxon(f): n = 60 > 50 takes the normal approximation
		{"approximate, n = 60", f, zeros(60), 670, 0.07129517575940755, false, math.NaN()},
		// st.wilcoxon(ties, method="approx") (zstatistic -2.2409012318166415)
		{"ties", ties, zeros(12), 10.5, 0.02503247344896743, false, -2.2409012318166415},
		// st.wilcoxon(withZeros) (zeros switch scipy to the approximation; zstatistic from method="approx")
		{"zeros", withZeros, zeros(13), 9, 0.03259553836210595, false, -2.1370301632713136},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := WilcoxonSignedRank(c.x, c.y)
			if err != nil {
				t.Fatal(err)
			}
			check(t, "statistic", w.Statistic, c.stat, 0)
			check(t, "p", w.P, c.p, 1e-10)
			if w.Exact != c.exact {
				t.Errorf("Exact = %v, want %v", w.Exact, c.exact)
			}
			if !math.IsNaN(c.z) {
				check(t, "z", w.Z, c.z, 1e-12)
			}
		})
	}
	if _, err := WilcoxonSignedRank([]float64{1, 2}, []float64{1, 2}); !errors.Is(err, ErrTooFew) {
		t.Errorf("all differences zero: %v", err)
	}
	if _, err := WilcoxonSignedRank([]float64{1, 2}, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("lengths 2 and 1: %v", err)
	}
}

func TestPairedTTestMatchesScipy(t *testing.T) {
	// st.ttest_rel(a, b)
	tt, err := PairedTTest(pairA, pairB)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "t", tt.T, 4.056112895532465, 1e-12)
	check(t, "p", tt.P, 0.0028585728686861276, 1e-9)
	p, err := PairedSplits(pairA, pairB)
	if err != nil {
		t.Fatal(err)
	}
	check(t, "mean difference", p.MeanDiff, 1.712, 1e-12)
	if !p.WilcoxonOK || p.Wilcoxon.P != 0.005859375 || p.T.P != tt.P {
		t.Errorf("PairedSplits = %+v", p)
	}
	same, err := PairedSplits(pairA, pairA)
	if err != nil {
		t.Fatal(err)
	}
	if same.T.P != 1 || same.Wilcoxon.P != 1 || same.WilcoxonOK || same.MeanDiff != 0 {
		t.Errorf("a model against itself: %+v, want p = 1 for both tests", same)
	}
	if _, err := PairedTTest([]float64{1}, []float64{2}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one pair: %v", err)
	}
}

func TestHolm(t *testing.T) {
	// S3's six pairwise Wilcoxon p-values, and Holm's adjustment by hand:
	// sorted 0.00390625·6, 0.0078125·5, 0.0390625·4, 0.07421875·3,
	// 0.1640625·2, 0.42578125·1, each at least the one before.
	p := []float64{0.1640625, 0.0078125, 0.00390625, 0.42578125, 0.0390625, 0.07421875}
	want := []float64{0.328125, 0.0390625, 0.0234375, 0.42578125, 0.15625, 0.22265625}
	got := Holm(p)
	for i := range want {
		check(t, "adjusted p", got[i], want[i], 1e-15)
	}
	if r := HolmReject(p, 0.05); !slices.Equal(r, []bool{false, true, true, false, false, false}) {
		t.Errorf("HolmReject = %v", r)
	}
	// monotone step-down: a later p smaller after scaling is raised
	if got := Holm([]float64{0.01, 0.011, math.NaN()}); got[0] != 0.02 || got[1] != 0.02 || !math.IsNaN(got[2]) {
		t.Errorf("Holm(0.01, 0.011, NaN) = %v, want 0.02, 0.02, NaN", got)
	}
}

func TestPairwiseWilcoxon(t *testing.T) {
	pw, err := PairwiseWilcoxon(friedmanS3)
	if err != nil {
		t.Fatal(err)
	}
	raw := [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
	want := []float64{0.1640625, 0.0078125, 0.00390625, 0.42578125, 0.0390625, 0.07421875}
	adj := Holm(want)
	for n, ij := range raw {
		check(t, "p", pw.P[ij[0]][ij[1]], want[n], 1e-12)
		check(t, "adjusted p", pw.Adjusted[ij[1]][ij[0]], adj[n], 1e-12)
	}
	rk, _ := AverageRanks(friedmanS3)
	groups := Groups(rk.Average, pw.Same(0.05))
	// 0 differs from 2 and 3, so the groups are {0, 1} and {1, 2, 3}.
	if !slices.EqualFunc(groups, [][]int{{0, 1}, {1, 2, 3}}, slices.Equal) {
		t.Errorf("Wilcoxon–Holm groups = %v", groups)
	}
}

func TestGroups(t *testing.T) {
	avg := []float64{2.9, 1.2, 4.0, 1.5, 3.2}
	// by rank: 1 (1.2), 3 (1.5), 0 (2.9), 4 (3.2), 2 (4.0); CD 1.5
	got := Groups(avg, NemenyiSame(avg, 1.5))
	want := [][]int{{1, 3}, {3, 0}, {0, 4, 2}} // 3 and 4 differ by 1.7
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Groups = %v, want %v", got, want)
	}
	if g := Groups(avg, NemenyiSame(avg, 0.1)); len(g) != 0 {
		t.Errorf("CD 0.1: groups %v, want none", g)
	}
	if g := Groups(avg, NemenyiSame(avg, 10)); !slices.EqualFunc(g, [][]int{{1, 3, 0, 4, 2}}, slices.Equal) {
		t.Errorf("CD 10: %v, want one group of all", g)
	}
}

func TestMissingDatasetIsDropped(t *testing.T) {
	s := [][]float64{{1, 2, 3}, {3, math.NaN(), 1}, {2, 3, 1}}
	rk, err := AverageRanks(s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rk.Used, []int{0, 2}) || !slices.Equal(rk.Dropped, []int{1}) {
		t.Errorf("Used %v, Dropped %v", rk.Used, rk.Dropped)
	}
	if !slices.Equal(rk.Average, []float64{2.5, 1.5, 2}) {
		t.Errorf("Average = %v", rk.Average)
	}
	if _, err := AverageRanks([][]float64{{1, math.NaN()}}); !errors.Is(err, ErrTooFew) {
		t.Errorf("no complete dataset: %v", err)
	}
	if _, err := AverageRanks([][]float64{{1, 2}, {1}}); !errors.Is(err, ErrShape) {
		t.Errorf("ragged: %v", err)
	}
	if _, err := FriedmanTest([][]float64{{1, 2}}); !errors.Is(err, ErrTooFew) {
		t.Errorf("one dataset: %v", err)
	}
}

// randomTable is n datasets × k models of random scores.
func randomTable(r *rand.Rand, n, k int) [][]float64 {
	s := make([][]float64, n)
	for d := range s {
		s[d] = make([]float64, k)
		for m := range s[d] {
			s[d][m] = math.Round(r.Float64()*1000) / 10
		}
	}
	return s
}

// TestPermutingModelsPermutesRanks: relabelling the models permutes their
// average ranks and leaves the Friedman test and the pairwise tests as
// they are.
func TestPermutingModelsPermutesRanks(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 3))
	for trial := range 20 {
		n, k := 3+r.IntN(10), 2+r.IntN(8)
		s := randomTable(r, n, k)
		perm := r.Perm(k)
		ps := make([][]float64, n)
		for d := range s {
			ps[d] = make([]float64, k)
			for m := range perm {
				ps[d][m] = s[d][perm[m]]
			}
		}
		f, err := FriedmanTest(s)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := FriedmanTest(ps)
		if err != nil {
			t.Fatal(err)
		}
		for m := range perm {
			if !near(pf.Ranking.Average[m], f.Ranking.Average[perm[m]], 1e-12) {
				t.Fatalf("trial %d: model %d's rank %g, was %g as model %d", trial, m, pf.Ranking.Average[m], f.Ranking.Average[perm[m]], perm[m])
			}
		}
		if !near(pf.ChiSquare, f.ChiSquare, 1e-9) || !near(pf.P, f.P, 1e-9) {
			t.Fatalf("trial %d: χ² %g → %g after relabelling", trial, f.ChiSquare, pf.ChiSquare)
		}
		pw, _ := PairwiseWilcoxon(s)
		ppw, _ := PairwiseWilcoxon(ps)
		for i := range perm {
			for j := range perm {
				if !near(ppw.Adjusted[i][j], pw.Adjusted[perm[i]][perm[j]], 1e-12) {
					t.Fatalf("trial %d: adjusted p (%d, %d) changed by relabelling", trial, i, j)
				}
			}
		}
	}
}

// TestIdenticalModelsAreNotDifferent: models with the same scores on every
// dataset tie everywhere, so no test finds a difference.
func TestIdenticalModelsAreNotDifferent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	col := randomTable(r, 8, 1)
	s := make([][]float64, len(col))
	for d := range s {
		s[d] = []float64{col[d][0], col[d][0], col[d][0]}
	}
	f, err := FriedmanTest(s)
	if err != nil {
		t.Fatal(err)
	}
	if f.ChiSquare != 0 || f.P != 1 || f.PF != 1 {
		t.Errorf("identical models: χ² %g p %g p(F) %g, want 0, 1, 1", f.ChiSquare, f.P, f.PF)
	}
	pw, err := PairwiseWilcoxon(s)
	if err != nil {
		t.Fatal(err)
	}
	if g := Groups(f.Ranking.Average, pw.Same(0.05)); len(g) != 1 || len(g[0]) != 3 {
		t.Errorf("identical models: groups %v, want one group of all three", g)
	}
	cd, _ := CriticalDifference(3, 8, 0.05)
	if g := Groups(f.Ranking.Average, NemenyiSame(f.Ranking.Average, cd)); len(g) != 1 || len(g[0]) != 3 {
		t.Errorf("identical models, Nemenyi: groups %v", g)
	}
}

// TestPerfectAgreement: one order on every dataset gives the largest χ²,
// N(K−1), and an infinite F.
func TestPerfectAgreement(t *testing.T) {
	s := [][]float64{{3, 2, 1}, {30, 20, 10}, {9, 8, 7}, {5, 4, 3}}
	f, err := FriedmanTest(s)
	if err != nil {
		t.Fatal(err)
	}
	if f.ChiSquare != 8 || !math.IsInf(f.F, 1) || f.PF != 0 {
		t.Errorf("perfect agreement: χ² %g F %g p(F) %g, want 8, +Inf, 0", f.ChiSquare, f.F, f.PF)
	}
}

// TestExactWilcoxonIsADistribution: the exact p-values are symmetric in
// R+ ↔ n(n+1)/2 − R+ and the smallest is 2/2^n.
func TestExactWilcoxonIsADistribution(t *testing.T) {
	for n := 1; n <= 12; n++ {
		top := n * (n + 1) / 2
		for r := 0; r <= top; r++ {
			if a, b := exactWilcoxonP(n, r), exactWilcoxonP(n, top-r); a != b || a <= 0 || a > 1 {
				t.Fatalf("n %d: p(%d) = %g, p(%d) = %g", n, r, a, top-r, b)
			}
		}
		if p := exactWilcoxonP(n, 0); p != math.Min(1, math.Ldexp(2, -n)) {
			t.Errorf("n %d: p(0) = %g", n, p)
		}
	}
}
