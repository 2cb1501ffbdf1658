//go:build !linux && !darwin && !windows

package sysmem

import (
	"errors"
	"fmt"
	"runtime"
)

// peak has no implementation on this system.
func peak() (n, unit uint64, err error) {
	return 0, 0, fmt.Errorf("sysmem: peak memory on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
