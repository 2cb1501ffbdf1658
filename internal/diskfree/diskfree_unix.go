//go:build linux || darwin

package diskfree

import (
	"fmt"

	"golang.org/x/sys/unix"
)

func available(path string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", path, err)
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil
}
