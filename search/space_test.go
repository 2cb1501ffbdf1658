package search

import (
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestParseDim(t *testing.T) {
	cases := []struct {
		in   string
		want Dim
	}{
		{"dropout=0:0.9", Dim{Name: "dropout", Kind: Float, Lo: 0, Hi: 0.9}},
		{"lr=log:1e-4:1e-1", Dim{Name: "lr", Kind: Float, Lo: 1e-4, Hi: 0.1, Log: true}},
		{"wd=float:1e-6:1e-2:log", Dim{Name: "wd", Kind: Float, Lo: 1e-6, Hi: 1e-2, Log: true}},
		{"wd=float:-1:1", Dim{Name: "wd", Kind: Float, Lo: -1, Hi: 1}},
		{"hidden=int:16:256:log", Dim{Name: "hidden", Kind: Int, Lo: 16, Hi: 256, Log: true}},
		{"hidden=int:log:16:256", Dim{Name: "hidden", Kind: Int, Lo: 16, Hi: 256, Log: true}},
		{"layers=int:1:4", Dim{Name: "layers", Kind: Int, Lo: 1, Hi: 4}},
		{"norm=choice:none,layer,batch", Dim{Name: "norm", Kind: Choice, Choices: []string{"none", "layer", "batch"}}},
		{" act = choice: relu , gelu ", Dim{Name: "act", Kind: Choice, Choices: []string{"relu", "gelu"}}},
		{"only=choice:x", Dim{Name: "only", Kind: Choice, Choices: []string{"x"}}},
		{"pc.alpha-2=0.5:1", Dim{Name: "pc.alpha-2", Kind: Float, Lo: 0.5, Hi: 1}},
	}
	for _, c := range cases {
		got, err := ParseDim(c.in)
		if err != nil {
			t.Errorf("ParseDim(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseDim(%q) = %+v, want %+v", c.in, got, c.want)
		}
		back, err := ParseDim(got.String())
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Errorf("ParseDim(%q.String() = %q) = %+v, %v", c.in, got.String(), back, err)
		}
	}
}

func TestParseDimErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"lr", "want name=spec"},
		{"=0:1", "the name must be"},
		{"l r=0:1", "the name must be"},
		{"lr=", "want [int:|float:]"},
		{"lr=0", "want [int:|float:]"},
		{"lr=0:1:2", "want [int:|float:]"},
		{"lr=log:1e-4:1e-1:log", "log is given twice"},
		{"lr=a:1", "lower bound: \"a\" is not a number"},
		{"lr=0:b", "upper bound: \"b\" is not a number"},
		{"lr=1:0", "must be below the upper bound"},
		{"lr=1:1", "must be below the upper bound"},
		{"lr=0:inf", "must be finite"},
		{"lr=nan:1", "must be finite"},
		{"lr=log:0:1", "needs a positive lower bound"},
		{"lr=log:-1:1", "needs a positive lower bound"},
		{"h=int:1.5:4", "bounds must be integers"},
		{"h=int:0:1e20", "within ±2^53"},
		{"h=int:log:0:8", "needs a positive lower bound"},
		{"n=choice:", "a choice must not be empty"},
		{"n=choice:a,,b", "a choice must not be empty"},
		{"n=choice:a,b,a", `the choice "a" is listed twice`},
	}
	for _, c := range cases {
		_, err := ParseDim(c.in)
		var de *DimError
		if !errors.As(err, &de) {
			t.Errorf("ParseDim(%q) = %v, want a *DimError", c.in, err)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseDim(%q) = %q, want it to say %q", c.in, err, c.want)
		}
	}
}

func TestValidateDim(t *testing.T) {
	bad := []struct {
		d    Dim
		want string
	}{
		{Dim{Name: "x", Kind: Float, Lo: 0, Hi: 1, Choices: []string{"a"}}, "has no choices"},
		{Dim{Name: "x", Kind: Choice, Lo: 1, Choices: []string{"a"}}, "no bounds or scale"},
		{Dim{Name: "x", Kind: Choice}, "at least one choice"},
		{Dim{Name: "x", Kind: Kind(7)}, "unknown kind"},
		{Dim{Name: "", Kind: Float, Hi: 1}, "the name must be"},
	}
	for _, c := range bad {
		err := c.d.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v.Validate() = %v, want %q", c.d, err, c.want)
		}
	}
}

func TestNewSpaceJoinsOneErrorPerBadDeclaration(t *testing.T) {
	_, err := ParseSpace("lr=log:0:1", "dropout=0:0.9", "h=int:1.5:3", "norm=choice:a,a")
	if err == nil {
		t.Fatal("no error")
	}
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok || len(joined.Unwrap()) != 3 {
		t.Fatalf("want 3 joined errors, got %v", err)
	}
	for _, name := range []string{`"lr"`, `"h"`, `"norm"`} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	_, err = NewSpace(Dim{Name: "a", Kind: Float, Hi: 1}, Dim{Name: "a", Kind: Int, Hi: 3})
	if err == nil || !strings.Contains(err.Error(), `"a": declared twice`) {
		t.Errorf("repeated name: %v", err)
	}
	if _, err := NewSpace(); err == nil {
		t.Error("an empty space was accepted")
	}
}

func TestValueEndpoints(t *testing.T) {
	cases := []struct {
		decl   string
		lo, hi string
	}{
		{"lr=log:1e-4:1e-1", "0.0001", "0.1"},
		{"lr=log:3e-5:7", "3e-05", "7"},
		{"d=0:0.9", "0", "0.9"},
		{"d=-2.5:1e6", "-2.5", "1e+06"},
		{"h=int:16:256:log", "16", "256"},
		{"h=int:1:2:log", "1", "2"},
		{"h=int:-3:5", "-3", "5"},
		{"n=choice:none,layer,batch", "none", "batch"},
	}
	for _, c := range cases {
		d, err := ParseDim(c.decl)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Value(0); got != c.lo {
			t.Errorf("%s: Value(0) = %s, want %s", c.decl, got, c.lo)
		}
		if got := d.Value(1); got != c.hi {
			t.Errorf("%s: Value(1) = %s, want %s", c.decl, got, c.hi)
		}
		if got := d.Value(math.Nextafter(1, 0)); got != c.hi {
			t.Errorf("%s: Value(1-ε) = %s, want %s", c.decl, got, c.hi)
		}
		if got := d.Value(-1); got != c.lo {
			t.Errorf("%s: Value(-1) = %s, want the clamp to %s", c.decl, got, c.lo)
		}
	}
}

// TestLogScaleIsUniformInTheLogarithm checks the middle of the log scale is the geometric mean,
// and that an int log scale gives each decade about the same share.
func TestLogScaleIsUniformInTheLogarithm(t *testing.T) {
	d, _ := ParseDim("lr=log:1e-4:1")
	mid, _ := strconv.ParseFloat(d.Value(0.5), 64)
	if math.Abs(mid-1e-2)/1e-2 > 1e-12 {
		t.Errorf("middle of log:1e-4:1 = %g, want 0.01", mid)
	}
	quarter, _ := strconv.ParseFloat(d.Value(0.25), 64)
	if math.Abs(quarter-1e-3)/1e-3 > 1e-12 {
		t.Errorf("quarter of log:1e-4:1 = %g, want 0.001", quarter)
	}
	h, _ := ParseDim("h=int:1:999:log")
	below10, below100 := 0, 0
	const n = 10000
	for i := range n {
		v, _ := strconv.Atoi(h.Value((float64(i) + 0.5) / n))
		if v < 10 {
			below10++
		}
		if v < 100 {
			below100++
		}
	}
	if math.Abs(float64(below10)/n-1.0/3) > 0.01 || math.Abs(float64(below100)/n-2.0/3) > 0.01 {
		t.Errorf("int log scale 1..999: %d and %d of %d below 10 and 100, want a third and two thirds",
			below10, below100, n)
	}
}

// TestIntLinearSharesAreEqual checks every integer of a linear range gets the same share of u.
func TestIntLinearSharesAreEqual(t *testing.T) {
	d, _ := ParseDim("k=int:2:5")
	counts := map[string]int{}
	const n = 4000
	for i := range n {
		counts[d.Value((float64(i)+0.5)/n)]++
	}
	for _, k := range []string{"2", "3", "4", "5"} {
		if counts[k] != n/4 {
			t.Errorf("value %s drawn %d times of %d, want %d (%v)", k, counts[k], n, n/4, counts)
		}
	}
}

func FuzzParseDim(f *testing.F) {
	for _, s := range []string{"lr=log:1e-4:1e-1", "hidden=int:16:256:log", "dropout=0:0.9",
		"norm=choice:none,layer,batch", "h=int:log:1:3", "x=float:-1e300:1e300", "a=choice:,", "=", ""} {
		f.Add(s, 0.5)
	}
	f.Fuzz(func(t *testing.T, s string, u float64) {
		d, err := ParseDim(s)
		if err != nil {
			var de *DimError
			if !errors.As(err, &de) {
				t.Fatalf("ParseDim(%q): %v is not a *DimError", s, err)
			}
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("ParseDim(%q) accepted an invalid %+v: %v", s, d, err)
		}
		back, err := ParseDim(d.String())
		if err != nil || !reflect.DeepEqual(back, d) {
			t.Fatalf("ParseDim(%q) = %+v; its String %q reads back as %+v, %v", s, d, d.String(), back, err)
		}
		for _, x := range []float64{0, 1, u} {
			v := d.Value(x)
			switch d.Kind {
			case Choice:
				if !contains(d.Choices, v) {
					t.Fatalf("%+v.Value(%g) = %q, not a choice", d, x, v)
				}
			default:
				got, err := strconv.ParseFloat(v, 64)
				if err != nil || got < d.Lo || got > d.Hi || (d.Kind == Int && got != math.Trunc(got)) {
					t.Fatalf("%+v.Value(%g) = %q, outside [%g, %g] (%v)", d, x, v, d.Lo, d.Hi, err)
				}
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
