package childproc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pcgcn/pcgcn/internal/sysmem"

	"github.com/pcgcn/pcgcn/internal/selfexec"
)

// childEnv selects what the re-executed test binary does as a child (see
// TestMain); the tests supervise real processes, not stand-ins.
const childEnv = "CHILDPROC_TEST_CHILD"

// growSteps is how many 16 MiB slices the "grow" child touches: 320 MiB,
// twice TestKilledOverMemory's cap.
const growSteps = 20

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "echo":
		fmt.Println(`{"median_ms": 1.5}`)
		os.Exit(0)
	case "fail":
		fmt.Fprintln(os.Stderr, strings.Repeat("x", 2*stderrTail))
		fmt.Fprintln(os.Stderr, "error: the last line")
		os.Exit(3)
	case "grow": // touch 16 MiB more every 20 ms, up to 320 MiB, then wait: above the cap whenever the supervisor looks
		var keep [][]byte
		for range growSteps {
			b := make([]byte, 16<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(time.Minute)
		fmt.Println(len(keep))
		os.Exit(0)
	case "sleep":
		time.Sleep(time.Minute)
		os.Exit(0)
	}
}

// child returns a command re-executing this test binary as the child mode.
func child(t *testing.T, mode string) *exec.Cmd {
	exe := selfexec.Executable(t)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode)
	return cmd
}

func TestExitsByItself(t *testing.T) {
	out := Run(context.Background(), child(t, "echo"), Limits{MemoryMiB: 1 << 20, Timeout: time.Minute})
	if out.Err != nil || out.Stopped != Exited || strings.TrimSpace(string(out.Stdout)) != `{"median_ms": 1.5}` || out.Wall <= 0 {
		t.Errorf("%+v", out)
	}
}

func TestFailureKeepsTheEndOfStderr(t *testing.T) {
	out := Run(context.Background(), child(t, "fail"), Limits{})
	var ee *exec.ExitError
	if !errors.As(out.Err, &ee) || ee.ExitCode() != 3 || out.Stopped != Exited {
		t.Fatalf("%v, stopped %v", out.Err, out.Stopped)
	}
	if len(out.Stderr) != stderrTail || !strings.HasSuffix(string(out.Stderr), "error: the last line\n") {
		t.Errorf("stderr kept: %d bytes ending %q", len(out.Stderr), out.Stderr[max(0, len(out.Stderr)-30):])
	}
}

func TestKilledOverMemory(t *testing.T) {
	if _, _, err := sysmem.ProcessMiB(os.Getpid()); errors.Is(err, errors.ErrUnsupported) {
		t.Skip(err)
	}
	const capMiB = 150
	// no time cap: a supervisor slowed by a busy machine still finds the
	// child above the cap, where it stays once grown (a child never
	// killed exits by itself after a minute, and the test fails)
	out := Run(context.Background(), child(t, "grow"), Limits{MemoryMiB: capMiB, Poll: 10 * time.Millisecond})
	if out.Stopped != OverMemory || out.Err == nil {
		t.Fatalf("stopped %v, err %v", out.Stopped, out.Err)
	}
	// above the cap and at most what the child ever holds (its slices and
	// the runtime's share): whenever it was seen, not how soon
	if most := float64(growSteps*16 + 64); out.PeakMiB <= capMiB || out.PeakMiB > most {
		t.Errorf("peak %.0f MiB seen, want above the %d MiB cap and at most the child's %.0f MiB", out.PeakMiB, capMiB, most)
	}
}

func TestKilledOverTime(t *testing.T) {
	out := Run(context.Background(), child(t, "sleep"), Limits{Timeout: 200 * time.Millisecond})
	// killed by the time cap rather than ending its minute: the reason
	// says so, with no bound on how long the kill took on a busy machine
	if out.Stopped != OverTime || out.Err == nil {
		t.Errorf("stopped %v, err %v, wall %v", out.Stopped, out.Err, out.Wall)
	}
}

func TestKilledWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	out := Run(ctx, child(t, "sleep"), Limits{})
	if out.Stopped != Cancelled || out.Err == nil {
		t.Errorf("stopped %v, err %v", out.Stopped, out.Err)
	}
}

func TestStartError(t *testing.T) {
	out := Run(context.Background(), exec.Command("/nonexistent/pcgcn-child"), Limits{})
	if out.Err == nil || out.Stopped != Exited {
		t.Errorf("%+v", out)
	}
}
