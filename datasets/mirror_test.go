package datasets

import (
	"github.com/pcgcn/pcgcn/testkit/datatest"

	"testing"
)

// mirror returns the real-data mirror or skips the test; with
// PCGCN_REQUIRE_DATA=1 a missing mirror fails it instead.
func mirror(t *testing.T) string { return datatest.Mirror(t) }
