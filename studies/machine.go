package studies

import (
	"time"

	"github.com/pcgcn/pcgcn/report"
)

// Machine describes the machine for report headers: cores, CPU model, OS
// (report.Machine, which the complexity study shares).
func Machine() string { return report.Machine() }

// FormatDuration is the one way the reproduction prints a duration: whole
// seconds under an hour ("45s", "12m5s"), whole minutes from an hour on
// ("3h5m"), so that the rows of a table and their total read alike
// (report.FormatDuration, which the complexity study shares).
func FormatDuration(d time.Duration) string { return report.FormatDuration(d) }
