package studies

import (
	"fmt"
	"os"
	"runtime"
	"strings"
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
