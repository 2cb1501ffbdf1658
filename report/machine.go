package report

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"
)

// Machine describes the machine for report headers: cores, CPU model, OS.
func Machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d cores (%s), %s/%s", runtime.NumCPU(), model, runtime.GOOS, runtime.GOARCH)
}

// FormatDuration is the one way the reports print a duration: whole
// seconds under an hour ("45s", "12m5s"), whole minutes from an hour on
// ("3h5m"), so that the rows of a table and their total read alike.
func FormatDuration(d time.Duration) string {
	if d < time.Hour {
		return d.Round(time.Second).String()
	}
	return strings.TrimSuffix(d.Round(time.Minute).String(), "0s")
}
