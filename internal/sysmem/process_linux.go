package sysmem

import (
	"fmt"
	"os"
)

// processMiB reads /proc/PID/status.
func processMiB(pid int) (rss, peak float64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	return parseProcStatus(string(b))
}
