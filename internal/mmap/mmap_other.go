//go:build !unix

package mmap

import "os"

func mapFile(*os.File, int) ([]byte, error) { return nil, ErrUnsupported }

func unmap([]byte) error { return nil }

func releasePages([]byte) {}

func offsetIn([]byte, []byte) (int, int) { return -1, -1 }

func mapFileRW(*os.File, int) ([]byte, error) { return nil, ErrUnsupported }
