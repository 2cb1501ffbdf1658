package search

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestRungCounts(t *testing.T) {
	cases := []struct {
		trials, eta int
		want        []int
	}{
		{27, 3, []int{27, 9, 3, 1}},
		{30, 3, []int{30, 10, 3, 1}},
		{10, 3, []int{10, 3, 1}},
		{81, 3, []int{81, 27, 9, 3, 1}},
		{100, 4, []int{100, 25, 6, 1}},
		{8, 2, []int{8, 4, 2, 1}},
		{2, 3, []int{2}},
		{1, 2, []int{1}},
	}
	for _, c := range cases {
		s := Schedule{Trials: c.trials, Eta: c.eta, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500}
		rungs, err := s.Rungs()
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for i, r := range rungs {
			got = append(got, r.Trials)
			if r.Index != i {
				t.Errorf("rung %d has index %d", i, r.Index)
			}
			if i > 0 && (r.Splits < rungs[i-1].Splits || r.Epochs < rungs[i-1].Epochs) {
				t.Errorf("(%d, %d): rung %d has fewer splits or epochs than rung %d: %+v", c.trials, c.eta, i, i-1, rungs)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("(%d, %d): rungs hold %v trials, want %v", c.trials, c.eta, got, c.want)
		}
		last := rungs[len(rungs)-1]
		if last.Splits != 10 || last.Epochs != 500 {
			t.Errorf("(%d, %d): last rung %+v, want the full 10 splits and 500 epochs", c.trials, c.eta, last)
		}
		if len(rungs) > 1 && (rungs[0].Splits != 1 || rungs[0].Epochs != 50) {
			t.Errorf("(%d, %d): first rung %+v, want 1 split and 50 epochs", c.trials, c.eta, rungs[0])
		}
	}
}

func TestRungsAndCost(t *testing.T) {
	s := Schedule{Trials: 27, Eta: 3, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500}
	rungs, _ := s.Rungs()
	want := []Rung{{0, 27, 1, 50}, {1, 9, 2, 108}, {2, 3, 5, 232}, {3, 1, 10, 500}}
	if !reflect.DeepEqual(rungs, want) {
		t.Errorf("rungs %+v, want %+v", rungs, want)
	}
	cost, err := s.Cost()
	if err != nil || cost != 27*50+9*2*108+3*5*232+10*500 {
		t.Errorf("cost %d, %v", cost, err)
	}
	units, _ := s.TrialUnits()
	if math.Abs(units-11774.0/5000) > 1e-12 {
		t.Errorf("trial units %g", units)
	}
	// a one-rung schedule is a plain random search at full budget
	flat := Schedule{Trials: 5, Eta: 10, MinSplits: 1, MaxSplits: 10, MinEpochs: 10, MaxEpochs: 100}
	if c, _ := flat.Cost(); c != 5*10*100 {
		t.Errorf("one rung: cost %d", c)
	}
}

func TestScheduleErrors(t *testing.T) {
	ok := Schedule{Trials: 9, Eta: 3, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500}
	cases := []struct {
		edit func(*Schedule)
		want string
	}{
		{func(s *Schedule) { s.Trials = 0 }, "0 trials"},
		{func(s *Schedule) { s.Eta = 1 }, "eta 1"},
		{func(s *Schedule) { s.MinSplits = 0 }, "splits from 0 to 10"},
		{func(s *Schedule) { s.MaxSplits = 0 }, "splits from 1 to 0"},
		{func(s *Schedule) { s.MinEpochs = 600 }, "epochs from 600 to 500"},
	}
	for _, c := range cases {
		s := ok
		c.edit(&s)
		if _, err := s.Cost(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", s, err, c.want)
		}
	}
}

func TestPromote(t *testing.T) {
	s := Schedule{Trials: 9, Eta: 3, MinSplits: 1, MaxSplits: 3, MinEpochs: 10, MaxEpochs: 90}
	val := map[ID]float64{"a": 50, "b": 70, "c": 70, "d": math.NaN(), "e": 60, "f": 10, "g": 70, "h": 69.9, "i": 0}
	if got := s.Promote(0, val); !reflect.DeepEqual(got, []ID{"b", "c", "g"}) {
		t.Errorf("rung 0 promotes %v, want the three 70s in ID order", got)
	}
	val["c"] = 70.0001
	if got := s.Promote(0, val); !reflect.DeepEqual(got, []ID{"c", "b", "g"}) {
		t.Errorf("rung 0 promotes %v, want c first", got)
	}
	// NaN ranks last, even below 0 and -Inf
	if got := s.Promote(1, map[ID]float64{"x": math.NaN(), "y": math.Inf(-1), "z": 0}); !reflect.DeepEqual(got, []ID{"z"}) {
		t.Errorf("rung 1 promotes %v", got)
	}
	if got := s.Promote(1, map[ID]float64{"x": math.NaN(), "y": math.NaN()}); !reflect.DeepEqual(got, []ID{"x"}) {
		t.Errorf("all NaN: %v, want the smaller ID", got)
	}
	// the last rung names the winner; fewer scores than places keeps them all
	if got := s.Promote(2, map[ID]float64{"p": 1, "q": 2}); !reflect.DeepEqual(got, []ID{"q"}) {
		t.Errorf("last rung: %v", got)
	}
	if got := s.Promote(0, map[ID]float64{"p": 1, "q": 2}); !reflect.DeepEqual(got, []ID{"q", "p"}) {
		t.Errorf("two scores for three places: %v", got)
	}
	if got := s.Promote(0, nil); len(got) != 0 {
		t.Errorf("no scores: %v", got)
	}
	for _, rung := range []int{-1, 3} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("rung %d did not panic", rung)
				}
			}()
			s.Promote(rung, val)
		}()
	}
}

// TestPromoteTakesValidationScoresOnly holds the API to its promise: Promote's only inputs are
// the schedule, a rung and one map of scores, so a test score has no way in.
func TestPromoteTakesValidationScoresOnly(t *testing.T) {
	typ := reflect.TypeOf(Schedule.Promote)
	want := []reflect.Type{reflect.TypeOf(Schedule{}), reflect.TypeOf(0), reflect.TypeOf(map[ID]float64{})}
	if typ.NumIn() != len(want) {
		t.Fatalf("Promote takes %d inputs, want %d", typ.NumIn(), len(want))
	}
	for i, w := range want {
		if typ.In(i) != w {
			t.Errorf("Promote's input %d is %v, want %v", i, typ.In(i), w)
		}
	}
}

// trial is a fake training: a validation and a test score for a point on a budget.
type trial func(p Point, r Rung) (val, test float64)

// halve runs a whole search the way a caller would, counting the split-epochs it trains, and
// returns the winner and that count.
func halve(t *testing.T, s Schedule, space *Space, seed uint64, train trial) (Point, int) {
	t.Helper()
	rungs, err := s.Rungs()
	if err != nil {
		t.Fatal(err)
	}
	pts, err := space.Sample(seed, s.Trials)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[ID]Point{}
	for _, p := range pts {
		byID[p.ID] = p
	}
	alive := pts
	spent := 0
	for _, r := range rungs {
		if len(alive) != r.Trials {
			t.Fatalf("rung %d: %d trials alive, the schedule says %d", r.Index, len(alive), r.Trials)
		}
		val := map[ID]float64{}
		for _, p := range alive {
			v, _ := train(p, r) // the test score is dropped here, by the caller, as it must be
			val[p.ID] = v
			spent += r.Splits * r.Epochs
		}
		next := s.Promote(r.Index, val)
		alive = alive[:0:0]
		for _, id := range next {
			alive = append(alive, byID[id])
		}
	}
	if len(alive) != 1 {
		t.Fatalf("%d winners", len(alive))
	}
	return alive[0], spent
}

// TestEqualBudgetsAcrossModels runs the search for two "models" with different spaces and
// scores under one Schedule: both train exactly Cost split-epochs.
func TestEqualBudgetsAcrossModels(t *testing.T) {
	for _, s := range []Schedule{
		{Trials: 27, Eta: 3, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500},
		{Trials: 20, Eta: 2, MinSplits: 2, MaxSplits: 10, MinEpochs: 100, MaxEpochs: 1000},
		{Trials: 7, Eta: 4, MinSplits: 10, MaxSplits: 10, MinEpochs: 200, MaxEpochs: 200},
	} {
		cost, _ := s.Cost()
		gcn := mustSpace(t, "lr=log:1e-4:1e-1", "hidden=int:16:256:log", "dropout=0:0.9")
		pcgcn := mustSpace(t, "lr=log:1e-3:1e-1", "alpha=0:1", "beta=log:1e-3:10", "norm=choice:none,layer")
		score := func(key string) trial {
			return func(p Point, r Rung) (float64, float64) {
				h := PointID(map[string]string{"p": string(p.ID), "k": key})
				return float64(h[0]) + float64(r.Epochs)/1000, float64(h[1])
			}
		}
		_, a := halve(t, s, gcn, 1, score("gcn"))
		_, b := halve(t, s, pcgcn, 1, score("pcgcn"))
		if a != cost || b != cost {
			t.Errorf("%+v: the models spent %d and %d split-epochs, the schedule's cost is %d", s, a, b, cost)
		}
	}
}

// TestTestScoresChooseNothing changes every test score and checks the winner is the same.
func TestTestScoresChooseNothing(t *testing.T) {
	s := Schedule{Trials: 27, Eta: 3, MinSplits: 1, MaxSplits: 10, MinEpochs: 50, MaxEpochs: 500}
	space := mustSpace(t, "lr=log:1e-4:1e-1", "dropout=0:0.9")
	val := func(p Point, r Rung) float64 { return float64(PointID(map[string]string{"v": string(p.ID)})[0]) }
	w1, _ := halve(t, s, space, 3, func(p Point, r Rung) (float64, float64) { return val(p, r), 0 })
	w2, _ := halve(t, s, space, 3, func(p Point, r Rung) (float64, float64) { return val(p, r), -val(p, r) })
	if w1.ID != w2.ID {
		t.Errorf("the winner changed with the test scores: %s, %s", w1.ID, w2.ID)
	}
}

// TestDefaultMinEpochs: the first rung's epochs shrink by eta per later rung
// (27 trials, eta 3: rungs 27/9/3/1, 1000/27 ≈ 37), never below 1.
func TestDefaultMinEpochs(t *testing.T) {
	for _, c := range []struct{ trials, eta, max, want int }{
		{27, 3, 1000, 37}, {9, 3, 100, 11}, {1, 3, 1000, 1000}, {2, 3, 1000, 1000}, {81, 3, 10, 1}, {0, 3, 50, 50},
	} {
		if got := DefaultMinEpochs(c.trials, c.eta, c.max); got != c.want {
			t.Errorf("DefaultMinEpochs(%d, %d, %d) = %d, want %d", c.trials, c.eta, c.max, got, c.want)
		}
	}
}
