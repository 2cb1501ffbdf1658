//go:build !linux

package tensor

import "runtime"

// osYield lets other goroutines run (see the Linux version, which yields the
// core to other processes too).
func osYield() { runtime.Gosched() }
