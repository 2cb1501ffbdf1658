// Package selfexec is test support for tests that re-execute their own test
// binary as a child process (a child that allocates until it is killed, a
// stand-in for `pcgcn bench`). Where the binary cannot run itself they
// skip: under user-mode emulation (`go test -exec qemu-aarch64-static`,
// as CI runs the linux/arm64 suite) without a binfmt handler for the
// foreign architecture, the kernel refuses to start it ("exec format
// error"), whereas natively it always can.
package selfexec

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// Executable returns the path of the running test binary after checking
// that it can start itself (with no test selected); it skips t when the
// system refuses to run it, and fails t on any other error.
func Executable(t testing.TB) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = []string{} // no child mode of the caller's TestMain
	if err := cmd.Run(); errors.Is(err, syscall.ENOEXEC) {
		t.Skipf("this test binary cannot run itself here (%v): it is emulated without a binfmt handler", err)
	} else if err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
	}
	return exe
}
