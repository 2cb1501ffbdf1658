//go:build windows

package diskfree

import (
	"fmt"

	"golang.org/x/sys/windows"
)

func available(path string) (uint64, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return 0, fmt.Errorf("free space of %s: %w", path, err)
	}
	var free, total, totalFree uint64
	if err := windows.GetDiskFreeSpaceEx(p, &free, &total, &totalFree); err != nil {
		return 0, fmt.Errorf("free space of %s: %w", path, err)
	}
	return free, nil
}
