//go:build !linux && !darwin && !windows

package diskfree

import (
	"errors"
	"fmt"
)

func available(path string) (uint64, error) {
	return 0, fmt.Errorf("free space of %s: not measured on this system: %w", path, errors.ErrUnsupported)
}
