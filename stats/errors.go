package stats

import "errors"

// ErrTooFew is returned when a test has too few models, datasets or pairs
// to be computed (e.g. the Friedman test with fewer than two models or no
// complete dataset, a paired test with no pair).
var ErrTooFew = errors.New("stats: too few observations")

// ErrShape is returned when the inputs' lengths disagree (rows of a score
// table of different widths, paired samples of different lengths).
var ErrShape = errors.New("stats: inputs of different lengths")

// ErrAlpha is returned for a significance level other than those the
// function supports.
var ErrAlpha = errors.New("stats: unsupported significance level")
