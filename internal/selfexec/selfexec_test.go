package selfexec

import (
	"os"
	"path/filepath"
	"testing"
)

// With EmulatorEnv set and no qemu binfmt handler, Executable skips
// before it starts anything; with a handler registered, or natively, it
// returns the running binary, which starts itself here.
func TestExecutableUnderAnEmulator(t *testing.T) {
	if os.Getenv(EmulatorEnv) != "" {
		t.Skip("already emulated: the native case cannot be checked here")
	}
	none, some := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(some, "qemu-aarch64"), []byte("enabled\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(dir string) (skipped bool, exe string) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			exe = executable(t, dir)
		})
		return skipped, exe
	}
	if skipped, exe := run(none); skipped || exe == "" {
		t.Errorf("natively: skipped %v, executable %q; want the test binary", skipped, exe)
	}
	t.Setenv(EmulatorEnv, "qemu-aarch64-static")
	if skipped, _ := run(none); !skipped {
		t.Error("emulated without a binfmt handler: want a skip")
	}
	if skipped, exe := run(some); skipped || exe == "" {
		t.Errorf("emulated with a qemu handler: skipped %v, executable %q; want the test binary", skipped, exe)
	}
}
