// Package sysmem reports the peak memory of the running process, in MiB,
// from each operating system's own call:
//
//   - Linux: getrusage(RUSAGE_SELF) ru_maxrss, which Linux gives in KiB;
//   - macOS: the same field, which Darwin gives in bytes;
//   - Windows: PeakWorkingSetSize of GetProcessMemoryInfo's
//     PROCESS_MEMORY_COUNTERS (kernel32's K32GetProcessMemoryInfo), in bytes.
//
// Each is the peak resident set (the peak working set on Windows): the most
// physical memory the process has held at once, the figure `pcgcn bench`
// reports. The unit conversion is the pure function [MiB], with each
// system's unit a constant here, so it is tested on every platform; the
// calls themselves are tested where they run. [ProcessMiB] reads another
// process's memory (Linux), for a parent that caps a child's.
package sysmem

// The units, in bytes, of the peak-memory figure each system reports; they
// are declared on every system so that the conversion of each is tested
// everywhere.
const (
	linuxMaxrssUnit           = 1024 // ru_maxrss on Linux: KiB (getrusage(2))
	darwinMaxrssUnit          = 1    // ru_maxrss on macOS: bytes (getrusage(2) there)
	windowsPeakWorkingSetUnit = 1    // PROCESS_MEMORY_COUNTERS.PeakWorkingSetSize: bytes
)

// MiB converts n units of unit bytes each into mebibytes (2^20 bytes).
func MiB(n, unit uint64) float64 {
	return float64(n) * float64(unit) / (1 << 20)
}

// PeakRSSMiB returns the peak resident set size of this process so far, in
// MiB (see the package comment for the call on each system). On other
// systems it returns an error wrapping errors.ErrUnsupported.
func PeakRSSMiB() (float64, error) {
	n, unit, err := peak()
	if err != nil {
		return 0, err
	}
	return MiB(n, unit), nil
}
