package sysmem

import (
	"errors"
	"os"
	"testing"
)

func TestParseProcStatus(t *testing.T) {
	text := "Name:\tpcgcn\nVmPeak:\t 9000 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1536 kB\nThreads:\t3\n"
	rss, peak, err := parseProcStatus(text)
	if err != nil || rss != 1.5 || peak != 2 {
		t.Errorf("rss %v peak %v err %v, want 1.5 and 2 MiB", rss, peak, err)
	}
	if rss, peak, err := parseProcStatus("Name:\tzombie\nState:\tZ (zombie)\n"); err != nil || rss != 0 || peak != 0 {
		t.Errorf("zombie: %v %v %v", rss, peak, err)
	}
	if _, _, err := parseProcStatus("VmRSS:\t12 MB\n"); err == nil {
		t.Error("a unit other than kB: no error")
	}
}

// TestProcessMiBSelf reads this process's own entry where the system has
// one: resident memory is positive and at most the peak.
func TestProcessMiBSelf(t *testing.T) {
	rss, peak, err := ProcessMiB(os.Getpid())
	if errors.Is(err, errors.ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil || rss <= 0 || rss > peak {
		t.Errorf("rss %v peak %v err %v", rss, peak, err)
	}
}
