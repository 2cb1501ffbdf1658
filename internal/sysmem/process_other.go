//go:build !linux

package sysmem

import (
	"errors"
	"fmt"
	"runtime"
)

// processMiB has no implementation on this system.
func processMiB(int) (rss, peak float64, err error) {
	return 0, 0, fmt.Errorf("sysmem: another process's memory on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
