package experiments

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/datasets"
	"github.com/pcgcn/pcgcn/testkit/datatest"
)

func TestParseShard(t *testing.T) {
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4"}
	for _, c := range []struct {
		in   string
		env  map[string]string
		want Shard
		err  string
	}{
		{"0/1", nil, Shard{0, 1}, ""},
		{"3/4", nil, Shard{3, 4}, ""},
		{"slurm", env, Shard{2, 4}, ""},
		{"slurm", nil, Shard{}, "SLURM_ARRAY_TASK_ID"},
		{"4/4", nil, Shard{}, `"4/4"`},
		{"-1/4", nil, Shard{}, `"-1/4"`},
		{"1/0", nil, Shard{}, `"1/0"`},
		{"1", nil, Shard{}, `"1"`},
		{"a/b", nil, Shard{}, `"a/b"`},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseShard(c.in, func(k string) string { return c.env[k] })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("%+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

// TestShardsBalanced: every cell goes to exactly one share, the same one on
// every call, and the largest share is within the longest-first bound
// (4/3 of the optimum, here at most 4/3 of the mean share plus one cell).
func TestShardsBalanced(t *testing.T) {
	costs := []float64{9, 1, 1, 7, 3, 3, 5, 2, 8, 4, 4, 6, 2, 1}
	total := 0.0
	for _, c := range costs {
		total += c
	}
	for n := 1; n <= 5; n++ {
		share := Shards(costs, n)
		again := Shards(costs, n)
		load := make([]float64, n)
		for i, s := range share {
			if s < 0 || s >= n || s != again[i] {
				t.Fatalf("n=%d: cell %d in share %d (again %d)", n, i, s, again[i])
			}
			load[s] += costs[i]
		}
		if m := Makespan(costs, n); m != sliceMax(load) || m > total/float64(n)*4/3+1 {
			t.Errorf("n=%d: makespan %v, loads %v", n, m, load)
		}
	}
}

func workCells() []Cell {
	var cs []Cell
	for _, m := range []string{"mlp", "gcn", "sgc"} {
		for _, d := range []string{"texas", "cornell"} {
			cs = append(cs, Cell{Study: "w", Dataset: d, Model: m, Splits: []int{0, 1}})
		}
	}
	return cs
}

var claimedLine = regexp.MustCompile(`(\S+) claimed (\S+)`)

// TestWorkersShareADirectory: three workers (as three processes would be)
// on one directory train every cell exactly once, with the numbers a serial
// run gives.
func TestWorkersShareADirectory(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	serial := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 4, Patience: 4}
	want, err := serial.Run(workCells())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	logs := make([]bytes.Buffer, 3)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for w := range 3 {
		wg.Go(func() {
			rn := &Runner{Dir: dir, Data: data, Threads: 1, Epochs: 4, Patience: 4, Progress: &logs[w], Lease: time.Minute}
			errs[w] = rn.Work(context.Background(), workCells(), WorkOptions{Poll: 20 * time.Millisecond})
		})
	}
	wg.Wait()
	claims := map[string]int{}
	for w := range 3 {
		if errs[w] != nil {
			t.Fatalf("worker %d: %v", w, errs[w])
		}
		for _, m := range claimedLine.FindAllStringSubmatch(logs[w].String(), -1) {
			claims[m[2]]++
		}
	}
	rn := &Runner{Dir: dir, Data: data, Threads: 1, Epochs: 4, Patience: 4}
	for i, c := range workCells() {
		if n := claims[cellName(c)]; n != 1 {
			t.Errorf("%s claimed %d times", cellName(c), n)
		}
		got := rn.LoadExact(c)
		if got == nil {
			t.Fatalf("%s not saved", cellName(c))
		}
		for k := range got.PerSplit {
			if got.PerSplit[k].Val != want[i].PerSplit[k].Val || got.PerSplit[k].Test != want[i].PerSplit[k].Test {
				t.Errorf("%s split %d: %v/%v, serial %v/%v", cellName(c), k, got.PerSplit[k].Val, got.PerSplit[k].Test,
					want[i].PerSplit[k].Val, want[i].PerSplit[k].Test)
			}
		}
		if _, err := os.Stat(rn.leases().path(c)); !os.IsNotExist(err) {
			t.Errorf("%s: claim file left behind", cellName(c))
		}
	}
}

// TestShardedWorkersCoverThePlan: the static shares of two workers are
// disjoint and together train the whole plan.
func TestShardedWorkersCoverThePlan(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	dir := t.TempDir()
	var logs [2]bytes.Buffer
	for i := range 2 {
		rn := &Runner{Dir: dir, Data: data, Threads: 1, Epochs: 3, Patience: 3, Progress: &logs[i]}
		if err := rn.Work(context.Background(), workCells(), WorkOptions{Shard: Shard{i, 2}}); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]int{}
	for i := range 2 {
		n := 0
		for _, m := range claimedLine.FindAllStringSubmatch(logs[i].String(), -1) {
			seen[m[2]]++
			n++
		}
		if n == 0 {
			t.Errorf("shard %d trained nothing", i)
		}
	}
	for _, c := range workCells() {
		if seen[cellName(c)] != 1 {
			t.Errorf("%s trained %d times", cellName(c), seen[cellName(c)])
		}
	}
}

// TestExpiredClaimIsTakenOver: a claim that is not renewed (its worker was
// killed) is broken after the lease, and its cell trained; a live one is
// waited for.
func TestExpiredClaimIsTakenOver(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	var log bytes.Buffer
	rn := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 3, Patience: 3, Progress: &log, Lease: 300 * time.Millisecond}
	c := Cell{Study: "w", Dataset: "texas", Model: "mlp", Splits: []int{0}}
	// a dead worker's claim, last renewed just now: live for one lease
	os.MkdirAll(filepath.Dir(rn.leases().path(c)), 0o755)
	if err := os.WriteFile(rn.leases().path(c), []byte(`{"worker":"dead/1/0/x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// the lease runs from the claim's modification time, as the workers
	// measure it, not from when this test gets to its next line: on a busy
	// machine that may be most of a lease later
	st, err := os.Stat(rn.leases().path(c))
	if err != nil {
		t.Fatal(err)
	}
	renewed := st.ModTime()
	// a plan under a long lease sees the claim live, however long this took
	long := &Runner{Dir: rn.Dir, Data: data, Lease: time.Hour}
	if p := long.Plan([]Cell{c}); p[0].Claimed != 1 {
		t.Errorf("plan %+v: the live claim is not counted", p[0])
	}
	if err := rn.Work(context.Background(), []Cell{c}, WorkOptions{Poll: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	// the worker broke the claim before it finished; a lower bound from
	// the right instant, which load can only lengthen
	if el := time.Since(renewed); el < rn.Lease {
		t.Errorf("the live claim was broken %v after its last renewal, before its lease %v", el, rn.Lease)
	}
	if rn.LoadExact(c) == nil || !strings.Contains(log.String(), "claimed w/"+c.Key()) {
		t.Fatalf("the cell was not taken up:\n%s", log.String())
	}
	if p := rn.Plan([]Cell{c}); p[0].Claimed != 0 || p[0].Done != 1 {
		t.Errorf("plan after: %+v", p[0])
	}
}

// TestWorkInterrupted: cancelling a worker releases its claim at once, and
// the next worker resumes the cell from its finished splits.
func TestWorkInterrupted(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	dir := t.TempDir()
	c := Cell{Study: "w", Dataset: "texas", Model: "mlp", Splits: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
	var log syncBuffer
	rn := &Runner{Dir: dir, Data: data, Threads: 1, Epochs: 200, Patience: 200, Progress: &log}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- rn.Work(ctx, []Cell{c}, WorkOptions{}) }()
	for !strings.Contains(log.String(), "split 0") { // one split finished: a partial file exists
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	if _, err := os.Stat(rn.leases().path(c)); !os.IsNotExist(err) {
		t.Fatalf("claim not released: %v", err)
	}
	if !strings.Contains(log.String(), "released w/"+c.Key()+" (interrupted)") {
		t.Errorf("no release line:\n%s", log.String())
	}
	time.Sleep(500 * time.Millisecond) // the interrupted goroutine finishes the split under way and stops
	var log2 bytes.Buffer
	next := &Runner{Dir: dir, Data: data, Threads: 1, Epochs: 200, Patience: 200, Progress: &log2}
	if err := next.Work(context.Background(), []Cell{c}, WorkOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log2.String(), "splits were saved") {
		t.Errorf("the next worker did not resume from the partial file:\n%s", log2.String())
	}
	if r := next.LoadExact(c); r == nil || len(r.PerSplit) != 10 {
		t.Fatalf("result %+v", r)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWorkRefusesWhatWouldLoseWork: each bad set-up fails before any claim,
// with one line naming the problem.
func TestWorkRefusesWhatWouldLoseWork(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	c := Cell{Study: "w", Dataset: "texas", Model: "mlp", Splits: []int{0}}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	other := t.TempDir()
	if _, err := (&Runner{Dir: other, Data: data, Threads: 1, Epochs: 3, Patience: 3}).Run([]Cell{c}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		rn   *Runner
		want string
	}{
		{"results dir under a file", &Runner{Dir: filepath.Join(file, "results"), Data: data, Epochs: 3, Patience: 3}, "results directory"},
		{"no data", &Runner{Dir: t.TempDir(), Data: datasets.Options{DataDir: t.TempDir(), CacheDir: t.TempDir(), Offline: true},
			Epochs: 3, Patience: 3}, "dataset texas"},
		{"another plan's cells", &Runner{Dir: other, Data: data, Epochs: 4, Patience: 3}, "another plan"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.rn.Work(context.Background(), []Cell{c}, WorkOptions{})
			if otherPlan := tc.want == "another plan"; errors.Is(err, ErrOtherPlan) != otherPlan {
				t.Errorf("error %v: errors.Is ErrOtherPlan %v, want %v", err, !otherPlan, otherPlan)
			}
			// (a missing dataset's error goes on to list the missing files)
			if err == nil || !strings.Contains(strings.SplitN(err.Error(), "\n", 2)[0], tc.want) {
				t.Fatalf("error %v, want a first line with %q", err, tc.want)
			}
			if _, err := os.Stat(tc.rn.leases().path(c)); err == nil {
				t.Error("a claim was made")
			}
		})
	}
}

// TestWorkKeepsCellsOfOtherNumerics: a directory written by another build's
// numerics loses nothing: its cells are kept, and the worker says so.
func TestWorkKeepsCellsOfOtherNumerics(t *testing.T) {
	data := datasets.Options{DataDir: datatest.Mirror(t), Offline: true}
	c := Cell{Study: "w", Dataset: "texas", Model: "mlp", Splits: []int{0}}
	rn := &Runner{Dir: t.TempDir(), Data: data, Threads: 1, Epochs: 3, Patience: 3}
	rs, err := rn.Run([]Cell{c})
	if err != nil {
		t.Fatal(err)
	}
	old := *rs[0]
	old.Numerics = "v1-elsewhere"
	if err := rn.store().Save(&old); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	w := &Runner{Dir: rn.Dir, Data: data, Threads: 1, Epochs: 3, Patience: 3, Progress: &log}
	if err := w.Work(context.Background(), []Cell{c}, WorkOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "1 saved cells were computed by other numerics") || strings.Contains(log.String(), "claimed") {
		t.Errorf("log:\n%s", log.String())
	}
	if r := w.LoadExact(c); r == nil || r.Numerics != "v1-elsewhere" {
		t.Errorf("the saved cell was not kept: %+v", r)
	}
}
