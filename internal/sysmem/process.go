package sysmem

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// ProcessMiB returns the resident memory of another process now and its
// peak so far (VmRSS and VmHWM of /proc/PID/status), in MiB: what a parent
// watches to stop a child that outgrows a memory cap. Linux only; on other
// systems it returns an error wrapping errors.ErrUnsupported.
func ProcessMiB(pid int) (rss, peak float64, err error) {
	return processMiB(pid)
}

// parseProcStatus reads VmRSS and VmHWM (in kB, which the kernel means as
// KiB) from the text of /proc/PID/status, in MiB. A process that has
// exited but not been reaped (a zombie) lists neither: its memory is 0.
func parseProcStatus(text string) (rss, peak float64, err error) {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != "VmRSS" && key != "VmHWM" {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, 0, fmt.Errorf("sysmem: %s: unexpected value %q", key, strings.TrimSpace(val))
		}
		kib, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("sysmem: %s: %w", key, err)
		}
		if key == "VmRSS" {
			rss = MiB(kib, linuxMaxrssUnit)
		} else {
			peak = MiB(kib, linuxMaxrssUnit)
		}
	}
	return rss, peak, sc.Err()
}
