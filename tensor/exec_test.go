package tensor

import (
	"sync"
	"testing"
)

func TestExecCoversRange(t *testing.T) {
	prefix := []int32{0, 100000, 100001, 100001, 100500, 200000, 200000, 300000}
	for _, th := range []int{0, 1, 2, 3, 8, 100} {
		for _, work := range []int{0, 1 << 30} {
			var mu sync.Mutex
			seen := make([]int, 37)
			Exec{Threads: th}.For(37, work, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("For Threads=%d work=%d: item %d visited %d times", th, work, i, s)
				}
			}
		}
		var mu sync.Mutex
		seen := make([]int, len(prefix)-1)
		Exec{Threads: th}.ForBalanced(prefix, 64, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, s := range seen {
			if s != 1 {
				t.Fatalf("ForBalanced Threads=%d: item %d visited %d times", th, i, s)
			}
		}
	}
	if (Exec{}).N() < 1 || (Exec{Threads: -3}).N() < 1 || (Exec{Threads: 5}).N() != 5 {
		t.Fatal("Exec.N wrong")
	}
}

func TestDynamicLoopsCoverRange(t *testing.T) {
	// trailing and leading empty rows, one heavy row
	prefix := []int32{0, 0, 50000, 50001, 50001, 90000, 120000, 120000, 120000}
	for _, th := range []int{1, 2, 3, 8, 100} {
		for _, work := range []int{0, 1 << 30} {
			var mu sync.Mutex
			seen := make([]int, 53)
			Exec{Threads: th}.forDynamic(53, work, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("forDynamic Threads=%d work=%d: item %d visited %d times", th, work, i, s)
				}
			}
		}
		for _, width := range []int{0, 64} {
			var mu sync.Mutex
			seen := make([]int, len(prefix)-1)
			Exec{Threads: th}.forDynamicBalanced(prefix, width, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("forDynamicBalanced Threads=%d width=%d: item %d visited %d times", th, width, i, s)
				}
			}
		}
	}
	Exec{Threads: 4}.forDynamic(0, 1<<30, func(lo, hi int) { t.Fatal("called on an empty range") })
	Exec{Threads: 4}.forDynamicBalanced([]int32{0}, 64, func(lo, hi int) { t.Fatal("called on an empty range") })
}

func TestWorkersCoverRangeAndShare(t *testing.T) {
	prefix := []int32{0, 0, 50000, 50001, 50001, 90000, 120000, 120000, 120000}
	w := NewWorkers(3)
	defer w.Close()
	check := func(name string, n int, run func(fn func(lo, hi int))) {
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
					check("For", 37+g, func(fn func(lo, hi int)) { e.For(37+g, 1<<30, fn) })
					check("ForBalanced", len(prefix)-1, func(fn func(lo, hi int)) { e.ForBalanced(prefix, 64, fn) })
					check("forDynamic", 53, func(fn func(lo, hi int)) { e.forDynamic(53, 1<<30, fn) })
					check("forDynamicBalanced", len(prefix)-1, func(fn func(lo, hi int)) { e.forDynamicBalanced(prefix, 64, fn) })
				}
			}
		}()
	}
	wg.Wait()
	// after Close an Exec holding the Workers still works
	w.Close()
	w.Close()
	e := Exec{Threads: 3, Workers: w}
	check("For after Close", 41, func(fn func(lo, hi int)) { e.For(41, 1<<30, fn) })
	check("forDynamic after Close", 41, func(fn func(lo, hi int)) { e.forDynamic(41, 1<<30, fn) })
}
