package sysmem

import "syscall"

// peak returns macOS's ru_maxrss for this process, in bytes.
func peak() (n, unit uint64, err error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, err
	}
	return uint64(ru.Maxrss), darwinMaxrssUnit, nil
}
