package search

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is the type of a dimension's values.
type Kind int

const (
	// Float is a real value in [Lo, Hi].
	Float Kind = iota
	// Int is an integer value in [Lo, Hi].
	Int
	// Choice is one of a list of strings.
	Choice
)

// String names the kind as the textual form writes it.
func (k Kind) String() string {
	switch k {
	case Float:
		return "float"
	case Int:
		return "int"
	case Choice:
		return "choice"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// maxInt is the largest integer bound a dimension accepts: every integer up to it is exact in a
// float64.
const maxInt = 1 << 53

// Dim is one named dimension of a search space: a float or integer range, on a linear or a
// logarithmic scale, or a list of categorical choices.
type Dim struct {
	// Name is the option's key, as --set spells it (letters, digits, '_', '.', '-').
	Name string
	// Kind is the type of the values.
	Kind Kind
	// Lo and Hi bound a Float or Int dimension, both included; Lo < Hi.
	Lo, Hi float64
	// Log samples a Float or Int dimension uniformly in log(value); it needs Lo > 0.
	Log bool
	// Choices are a Choice dimension's values, distinct and non-empty.
	Choices []string
}

// DimError is a bad dimension declaration: its name (or text, when the name is unknown) and why.
type DimError struct {
	// Dim is the dimension's name, or the declaration's text when it has no name.
	Dim string
	// Reason says what is wrong, in words.
	Reason string
}

// Error names the dimension and the reason.
func (e *DimError) Error() string {
	return fmt.Sprintf("search dimension %q: %s", e.Dim, e.Reason)
}

func dimErr(name, format string, args ...any) error {
	return &DimError{Dim: name, Reason: fmt.Sprintf(format, args...)}
}

func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		ok := r == '_' || r == '.' || r == '-' || ('0' <= r && r <= '9') ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
		if !ok {
			return false
		}
	}
	return true
}

// Validate returns one *DimError saying what is wrong with the declaration, or nil.
func (d Dim) Validate() error {
	if !validName(d.Name) {
		return dimErr(d.Name, "the name must be non-empty letters, digits, '_', '.' or '-'")
	}
	switch d.Kind {
	case Float, Int:
		if len(d.Choices) > 0 {
			return dimErr(d.Name, "a %s dimension has no choices", d.Kind)
		}
		if math.IsNaN(d.Lo) || math.IsNaN(d.Hi) || math.IsInf(d.Lo, 0) || math.IsInf(d.Hi, 0) {
			return dimErr(d.Name, "the bounds must be finite, not %g and %g", d.Lo, d.Hi)
		}
		if !(d.Lo < d.Hi) {
			return dimErr(d.Name, "the lower bound %g must be below the upper bound %g", d.Lo, d.Hi)
		}
		if d.Log && d.Lo <= 0 {
			return dimErr(d.Name, "a log scale needs a positive lower bound, not %g", d.Lo)
		}
		if d.Kind == Int {
			if d.Lo != math.Trunc(d.Lo) || d.Hi != math.Trunc(d.Hi) {
				return dimErr(d.Name, "an int dimension's bounds must be integers, not %g and %g", d.Lo, d.Hi)
			}
			if math.Abs(d.Lo) > maxInt || math.Abs(d.Hi) > maxInt {
				return dimErr(d.Name, "an int dimension's bounds must lie within ±2^53")
			}
		}
	case Choice:
		if d.Log || d.Lo != 0 || d.Hi != 0 {
			return dimErr(d.Name, "a choice dimension has no bounds or scale")
		}
		if len(d.Choices) == 0 {
			return dimErr(d.Name, "a choice dimension needs at least one choice")
		}
		seen := make(map[string]bool, len(d.Choices))
		for _, c := range d.Choices {
			if c == "" {
				return dimErr(d.Name, "a choice must not be empty")
			}
			if seen[c] {
				return dimErr(d.Name, "the choice %q is listed twice", c)
			}
			seen[c] = true
		}
	default:
		return dimErr(d.Name, "unknown kind %d", int(d.Kind))
	}
	return nil
}

// Value maps u in [0, 1] to the dimension's value, formatted as --set takes it: a float in
// strconv's shortest 'g' form (after rounding to Digits significant digits, the bounds exact), an integer in decimal, a choice as written. u = 0 gives Lo (or the
// first choice) and u = 1 gives Hi (or the last); on a log scale the mapping is uniform in the
// logarithm. u outside [0, 1] is clamped. d must be valid.
func (d Dim) Value(u float64) string {
	if math.IsNaN(u) || u < 0 {
		u = 0
	}
	if u > 1 {
		u = 1
	}
	switch d.Kind {
	case Float:
		return strconv.FormatFloat(d.float(u), 'g', -1, 64)
	case Int:
		return strconv.FormatInt(d.int(u), 10)
	default:
		i := int(u * float64(len(d.Choices)))
		return d.Choices[min(i, len(d.Choices)-1)]
	}
}

// Digits is the number of significant digits a float value keeps: a trial's lr is 0.003162, not
// 0.0031622776601683794, which would name the same training in its cell key as 17 digits.
const Digits = 4

// float maps u to the value, rounded to Digits significant digits and kept within [Lo, Hi].
func (d Dim) float(u float64) float64 {
	switch u {
	case 0:
		return d.Lo
	case 1:
		return d.Hi
	}
	var x float64
	if d.Log {
		x = math.Exp(math.Log(d.Lo) + u*(math.Log(d.Hi)-math.Log(d.Lo)))
	} else {
		x = d.Lo + u*(d.Hi-d.Lo)
	}
	if r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', Digits, 64), 64); err == nil {
		x = r
	}
	return math.Min(math.Max(x, d.Lo), d.Hi)
}

// int gives every integer of [Lo, Hi] an equal share of u (linear) or a share proportional to
// log((k+1)/k) (log scale), so that both endpoints are reached.
func (d Dim) int(u float64) int64 {
	var x float64
	if d.Log {
		lo, hi := math.Log(d.Lo), math.Log(d.Hi+1)
		x = math.Floor(math.Exp(lo + u*(hi-lo)))
	} else {
		x = d.Lo + math.Floor(u*(d.Hi-d.Lo+1))
	}
	return int64(math.Min(math.Max(x, d.Lo), d.Hi))
}

// String gives the dimension's textual form, which ParseDim reads back.
func (d Dim) String() string {
	switch d.Kind {
	case Choice:
		return d.Name + "=choice:" + strings.Join(d.Choices, ",")
	case Int:
		s := fmt.Sprintf("%s=int:%s:%s", d.Name, fmtNum(d.Lo), fmtNum(d.Hi))
		if d.Log {
			s += ":log"
		}
		return s
	default:
		if d.Log {
			return fmt.Sprintf("%s=log:%s:%s", d.Name, fmtNum(d.Lo), fmtNum(d.Hi))
		}
		return fmt.Sprintf("%s=%s:%s", d.Name, fmtNum(d.Lo), fmtNum(d.Hi))
	}
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// ParseDim reads a dimension's compact textual form:
//
//	name=lo:hi              a float, linear scale         dropout=0:0.9
//	name=log:lo:hi          a float, log scale            lr=log:1e-4:1e-1
//	name=float:lo:hi[:log]  a float, either scale         wd=float:1e-6:1e-2:log
//	name=int:lo:hi[:log]    an integer, either scale      hidden=int:16:256:log
//	name=int:log:lo:hi      the same                      hidden=int:log:16:256
//	name=choice:a,b,c       one of the listed strings     norm=choice:none,layer,batch
//
// The declaration is validated (Dim.Validate); every error is a *DimError.
func ParseDim(s string) (Dim, error) {
	name, spec, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok {
		return Dim{}, dimErr(s, "want name=spec, such as lr=log:1e-4:1e-1")
	}
	if !validName(name) {
		return Dim{}, dimErr(s, "the name must be non-empty letters, digits, '_', '.' or '-'")
	}
	spec = strings.TrimSpace(spec)
	if rest, ok := strings.CutPrefix(spec, "choice:"); ok {
		d := Dim{Name: name, Kind: Choice}
		for _, c := range strings.Split(rest, ",") {
			d.Choices = append(d.Choices, strings.TrimSpace(c))
		}
		return d, d.Validate()
	}
	parts := strings.Split(spec, ":")
	d := Dim{Name: name, Kind: Float}
	if len(parts) > 0 {
		switch parts[0] {
		case "int":
			d.Kind = Int
			parts = parts[1:]
		case "float":
			parts = parts[1:]
		}
	}
	if len(parts) > 0 && parts[0] == "log" {
		d.Log = true
		parts = parts[1:]
	}
	if len(parts) == 3 && parts[2] == "log" {
		if d.Log {
			return Dim{}, dimErr(name, "log is given twice in %q", spec)
		}
		d.Log = true
		parts = parts[:2]
	}
	if len(parts) != 2 {
		return Dim{}, dimErr(name, "want [int:|float:][log:]lo:hi[:log] or choice:a,b,..., not %q", spec)
	}
	var err error
	if d.Lo, err = parseBound(parts[0]); err != nil {
		return Dim{}, dimErr(name, "lower bound: %v", err)
	}
	if d.Hi, err = parseBound(parts[1]); err != nil {
		return Dim{}, dimErr(name, "upper bound: %v", err)
	}
	return d, d.Validate()
}

func parseBound(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return x, nil
}

// Space is a search space: named dimensions, in a fixed order (the order of the quasi-random
// sequence's coordinates, hence part of what a seed reproduces).
type Space struct {
	dims []Dim
}

// NewSpace validates the dimensions and returns the space they span. Its error joins one
// *DimError per bad declaration (errors.Join), including each repeated name.
func NewSpace(dims ...Dim) (*Space, error) {
	var errs []error
	seen := make(map[string]bool, len(dims))
	for _, d := range dims {
		if err := d.Validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		if seen[d.Name] {
			errs = append(errs, dimErr(d.Name, "declared twice"))
			continue
		}
		seen[d.Name] = true
	}
	if len(dims) == 0 {
		errs = append(errs, errors.New("search space: no dimensions"))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := make([]Dim, len(dims))
	for i, d := range dims {
		d.Choices = append([]string(nil), d.Choices...)
		out[i] = d
	}
	return &Space{dims: out}, nil
}

// ParseSpace parses each declaration with ParseDim and builds the space; its error joins one
// error per bad declaration.
func ParseSpace(decls ...string) (*Space, error) {
	var errs []error
	dims := make([]Dim, 0, len(decls))
	for _, s := range decls {
		d, err := ParseDim(s)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		dims = append(dims, d)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return NewSpace(dims...)
}

// Dims returns a copy of the space's dimensions, in order.
func (s *Space) Dims() []Dim {
	out := make([]Dim, len(s.dims))
	copy(out, s.dims)
	for i := range out {
		out[i].Choices = append([]string(nil), out[i].Choices...)
	}
	return out
}

// Names returns the dimensions' names, sorted.
func (s *Space) Names() []string {
	names := make([]string, len(s.dims))
	for i, d := range s.dims {
		names[i] = d.Name
	}
	sort.Strings(names)
	return names
}
