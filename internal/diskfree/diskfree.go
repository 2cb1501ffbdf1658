// Package diskfree reports the space left on the disk that holds a path,
// so that a command writing gigabytes can refuse before it starts rather
// than fail half-way. One file per system: statfs on Linux and macOS,
// GetDiskFreeSpaceEx on Windows, and elsewhere an error wrapping
// errors.ErrUnsupported (callers then skip the check).
package diskfree

// Available returns the bytes an unprivileged user may still write on the
// file system holding path (which must exist): what df shows as available,
// not counting the blocks reserved for root.
func Available(path string) (uint64, error) { return available(path) }
