package sysmem

import (
	"errors"
	"runtime"
	"testing"
)

// TestMiBUnits checks the conversion for each system's unit, on every
// platform: 64 MiB as Linux reports it (KiB), as macOS does (bytes) and as
// Windows does (bytes).
func TestMiBUnits(t *testing.T) {
	for _, c := range []struct {
		system string
		n      uint64
		unit   uint64
		want   float64
	}{
		{"linux", 64 << 10, linuxMaxrssUnit, 64},
		{"darwin", 64 << 20, darwinMaxrssUnit, 64},
		{"windows", 64 << 20, windowsPeakWorkingSetUnit, 64},
		{"linux", 1536, linuxMaxrssUnit, 1.5},
		{"darwin", 3 << 19, darwinMaxrssUnit, 1.5},
		{"windows", 0, windowsPeakWorkingSetUnit, 0},
	} {
		if got := MiB(c.n, c.unit); got != c.want {
			t.Errorf("%s: %d units of %d bytes = %v MiB, want %v", c.system, c.n, c.unit, got, c.want)
		}
	}
}

// TestPeakRSSGrows allocates and touches 64 MiB, where this system has an
// implementation, and checks that the peak then counts them (at least 60
// MiB) without growing by more than 256 MiB. The growth can be less than 64
// MiB (the peak before may exceed the memory resident when the 64 MiB are
// touched) or more (the race detector's shadow memory grows with them:
// about +120 MiB under -race); a unit off by 1024 gives 1/16 MiB or 64 GiB.
func TestPeakRSSGrows(t *testing.T) {
	before, err := PeakRSSMiB()
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skipf("no peak-memory call on %s: %v", runtime.GOOS, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	const size = 64 << 20
	b := make([]byte, size)
	for i := 0; i < len(b); i += 4096 { // touch every page: make's pages are not yet resident
		b[i] = 1
	}
	after, err := PeakRSSMiB()
	runtime.KeepAlive(b)
	if err != nil {
		t.Fatal(err)
	}
	grew := after - before
	t.Logf("peak %.1f MiB before, %.1f MiB after touching 64 MiB (+%.1f)", before, after, grew)
	if before <= 0 || after < 60 || grew > 256 {
		t.Errorf("peak went from %.1f to %.1f MiB after touching 64 MiB, want at least 60 MiB and a growth of at most 256", before, after)
	}
}

// TestCPUSecondsGrowsWithWork: a reading after a fixed busy loop (about
// 0.1 s of one core) is later than one before it; a constant or a clock
// that does not count this process's work fails. Where getrusage is missing
// the error says so.
func TestCPUSecondsGrowsWithWork(t *testing.T) {
	a, err := CPUSeconds()
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	x := 1.0
	for range 100_000_000 {
		x = x*1.0000001 + 1e-9
	}
	b, err := CPUSeconds()
	if err != nil {
		t.Fatal(err)
	}
	if b <= a || a < 0 {
		t.Errorf("CPU time %.6f s before a busy loop and %.6f s after (x = %g)", a, b, x)
	}
}
