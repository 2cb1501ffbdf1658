package sysmem

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processMemoryCounters is PROCESS_MEMORY_COUNTERS (psapi.h); x/sys/windows
// does not declare it.
type processMemoryCounters struct {
	cb                         uint32
	pageFaultCount             uint32
	peakWorkingSetSize         uintptr
	workingSetSize             uintptr
	quotaPeakPagedPoolUsage    uintptr
	quotaPagedPoolUsage        uintptr
	quotaPeakNonPagedPoolUsage uintptr
	quotaNonPagedPoolUsage     uintptr
	pagefileUsage              uintptr
	peakPagefileUsage          uintptr
}

// peak returns this process's PeakWorkingSetSize, in bytes, from
// K32GetProcessMemoryInfo (kernel32 since Windows 7; psapi's
// GetProcessMemoryInfo is the same function). x/sys/windows has no binding
// for it, so it is looked up here, on each call: the figure is read once
// per run, and a package-level handle would be package state.
func peak() (n, unit uint64, err error) {
	proc := windows.NewLazySystemDLL("kernel32.dll").NewProc("K32GetProcessMemoryInfo")
	if err := proc.Find(); err != nil {
		return 0, 0, err
	}
	var c processMemoryCounters
	c.cb = uint32(unsafe.Sizeof(c))
	ok, _, callErr := proc.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&c)), uintptr(c.cb))
	if ok == 0 {
		return 0, 0, fmt.Errorf("sysmem: K32GetProcessMemoryInfo: %w", callErr)
	}
	return uint64(c.peakWorkingSetSize), windowsPeakWorkingSetUnit, nil
}
