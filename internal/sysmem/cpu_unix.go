//go:build unix

package sysmem

import "syscall"

// CPUSeconds returns the CPU time this process has used so far, user and
// system, in seconds (getrusage(RUSAGE_SELF) ru_utime + ru_stime). The
// difference of two readings is the CPU a stretch of work took, whatever
// the wall clock or the machine's load; the experiments runner records it
// per cell. On systems without getrusage it returns an error wrapping
// errors.ErrUnsupported.
func CPUSeconds() (float64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return tvSeconds(ru.Utime) + tvSeconds(ru.Stime), nil
}

// tvSeconds converts a timeval to seconds.
func tvSeconds(tv syscall.Timeval) float64 {
	return float64(tv.Sec) + float64(tv.Usec)/1e6
}
