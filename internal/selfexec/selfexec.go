// Package selfexec is test support for tests that re-execute their own test
// binary as a child process (a child that allocates until it is killed, a
// stand-in for `pcgcn bench`). Where the binary cannot run itself they
// skip: under user-mode emulation (`go test -exec qemu-aarch64-static`,
// as CI runs the linux/arm64 suite) without a binfmt handler for the
// foreign architecture, the kernel refuses to start it ("exec format
// error"), whereas natively it always can. Where the runner says the
// binary is emulated (EmulatorEnv) and no binfmt handler for qemu is
// registered, they skip before forking at all: under qemu-user a forked
// child whose exec fails can hang instead of exiting (a CI run waited 30
// minutes in wait4 on one), so the probe itself is not safe there.
package selfexec

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// EmulatorEnv is the environment variable a runner of emulated tests sets
// to the emulator's name (.ci/run: qemu-aarch64-static for the linux/arm64
// suite); see Executable.
const EmulatorEnv = "PCGCN_TEST_EMULATOR"

// binfmtDir is where the kernel lists its binfmt_misc handlers.
const binfmtDir = "/proc/sys/fs/binfmt_misc"

// Executable returns the path of the running test binary after checking
// that it can start itself (with no test selected); it skips t when the
// system refuses to run it, or, with EmulatorEnv set, when no qemu binfmt
// handler is registered (without forking), and fails t on any other error.
func Executable(t testing.TB) string {
	t.Helper()
	return executable(t, binfmtDir)
}

// executable is Executable with the binfmt_misc directory as a parameter.
func executable(t testing.TB, binfmt string) string {
	t.Helper()
	if emu := os.Getenv(EmulatorEnv); emu != "" {
		if handlers, _ := filepath.Glob(filepath.Join(binfmt, "qemu-*")); len(handlers) == 0 {
			t.Skipf("this test binary runs under %s (%s) with no qemu binfmt handler in %s: it could not start itself, and a failed start can hang the emulated fork", emu, EmulatorEnv, binfmt)
		}
	}
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
