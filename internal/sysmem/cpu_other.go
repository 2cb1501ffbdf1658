//go:build !unix

package sysmem

import (
	"errors"
	"fmt"
	"runtime"
)

// CPUSeconds has no implementation on this system (see cpu_unix.go).
func CPUSeconds() (float64, error) {
	return 0, fmt.Errorf("sysmem: CPU time on %s: %w", runtime.GOOS, errors.ErrUnsupported)
}
