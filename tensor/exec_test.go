package tensor

import (
	"fmt"
	"sync"
	"testing"
)

// checkCovers runs a loop whose body marks the items it visits and fails
// unless every item of [0, n) was visited exactly once.
func checkCovers(t *testing.T, name string, n int, run func(fn func(lo, hi int))) {
	t.Helper()
	var mu sync.Mutex
	seen := make([]int, n)
	run(func(lo, hi int) {
		mu.Lock()
		defer mu.Unlock()
		for i := lo; i < hi; i++ {
			seen[i]++
		}
	})
	for i, s := range seen {
		if s != 1 {
			t.Fatalf("%s: item %d visited %d times", name, i, s)
		}
	}
}

func TestExecCoversRange(t *testing.T) {
	prefix := []int32{0, 100000, 100001, 100001, 100500, 200000, 200000, 300000}
	for _, th := range []int{0, 1, 2, 3, 8, 100} {
		e := Exec{Threads: th}
		for _, work := range []int{0, 1 << 30} {
			checkCovers(t, fmt.Sprintf("For Threads=%d work=%d", th, work), 37, func(fn func(lo, hi int)) { e.For(37, work, fn) })
		}
		checkCovers(t, fmt.Sprintf("ForBalanced Threads=%d", th), len(prefix)-1, func(fn func(lo, hi int)) { e.ForBalanced(prefix, 64, fn) })
	}
	if (Exec{}).N() < 1 || (Exec{Threads: -3}).N() < 1 || (Exec{Threads: 5}).N() != 5 {
		t.Fatal("Exec.N wrong")
	}
}

func TestDynamicLoopsCoverRange(t *testing.T) {
	// trailing and leading empty rows, one heavy row
	prefix := []int32{0, 0, 50000, 50001, 50001, 90000, 120000, 120000, 120000}
	for _, th := range []int{1, 2, 3, 8, 100} {
		e := Exec{Threads: th}
		for _, work := range []int{0, 1 << 30} {
			checkCovers(t, fmt.Sprintf("forDynamic Threads=%d work=%d", th, work), 53, func(fn func(lo, hi int)) { e.forDynamic(53, work, fn) })
		}
		for _, width := range []int{0, 64} {
			checkCovers(t, fmt.Sprintf("forDynamicBalanced Threads=%d width=%d", th, width), len(prefix)-1,
				func(fn func(lo, hi int)) { e.forDynamicBalanced(prefix, width, fn) })
		}
	}
	Exec{Threads: 4}.forDynamic(0, 1<<30, func(lo, hi int) { t.Fatal("called on an empty range") })
	Exec{Threads: 4}.forDynamicBalanced([]int32{0}, 64, func(lo, hi int) { t.Fatal("called on an empty range") })
}

func TestWorkersCoverRangeAndShare(t *testing.T) {
	prefix := []int32{0, 0, 50000, 50001, 50001, 90000, 120000, 120000, 120000}
	w := NewWorkers(3)
	defer w.Close()
	// the same Workers used from several goroutines at once (the busy ones
	// fall back to fresh goroutines), and by Execs of more threads than it has
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, th := range []int{2, 4, 6} {
				e := Exec{Threads: th, Workers: w}
				for range 20 {
					checkCovers(t, "For", 37+g, func(fn func(lo, hi int)) { e.For(37+g, 1<<30, fn) })
					checkCovers(t, "ForBalanced", len(prefix)-1, func(fn func(lo, hi int)) { e.ForBalanced(prefix, 64, fn) })
					checkCovers(t, "forDynamic", 53, func(fn func(lo, hi int)) { e.forDynamic(53, 1<<30, fn) })
					checkCovers(t, "forDynamicBalanced", len(prefix)-1, func(fn func(lo, hi int)) { e.forDynamicBalanced(prefix, 64, fn) })
				}
			}
		}()
	}
	wg.Wait()
	// after Close an Exec holding the Workers still works
	w.Close()
	w.Close()
	e := Exec{Threads: 3, Workers: w}
	checkCovers(t, "For after Close", 41, func(fn func(lo, hi int)) { e.For(41, 1<<30, fn) })
	checkCovers(t, "forDynamic after Close", 41, func(fn func(lo, hi int)) { e.forDynamic(41, 1<<30, fn) })
}

// ZeroExec clears every element, whether the matrix is split among
// goroutines (large) or not (small), and nothing beyond it.
func TestZeroExec(t *testing.T) {
	for _, shape := range [][2]int{{1, 5}, {3000, 300}, {7, 100_000}} {
		for _, e := range []Exec{Serial, {Threads: 3}} {
			backing := make([]float32, shape[0]*shape[1]+1)
			for i := range backing {
				backing[i] = 1
			}
			m := &Dense{Rows: shape[0], Cols: shape[1], Data: backing[:shape[0]*shape[1]]}
			m.ZeroExec(e)
			for i, v := range m.Data {
				if v != 0 {
					t.Fatalf("%v threads %d: element %d is %v after ZeroExec", shape, e.Threads, i, v)
				}
			}
			if backing[len(backing)-1] != 1 {
				t.Fatalf("%v: ZeroExec wrote past the matrix", shape)
			}
		}
	}
}
