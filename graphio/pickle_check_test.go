package graphio

import "testing"

func TestCheckPickle(t *testing.T) {
	bad := map[string]string{
		"empty":               "",
		"no stop":             "\x80\x02K\x01",
		"opcode 0xff":         "\x80\x02\xff.",
		"odd dict":            "(K\x01d.",
		"odd setitems":        "}(K\x01u.",
		"empty long1":         "\x8a\x00.",
		"long string":         "T\xff\xff\x00\x00ab.",
		"protocol 4":          "\x80\x04N.",
		"frame":               "\x80\x02\x95\x01\x00\x00\x00\x00\x00\x00\x00N.",
		"stack underflow":     "R.",
		"two items at stop":   "NN.",
		"unterminated global": "cnumpy\nndar",
		"bytes opcode":        "C\x01a.",
	}
	for name, s := range bad {
		if err := checkPickle([]byte(s)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, s := range []string{"N.", "\x80\x02(K\x01K\x02d.", "]q\x00(K\x01K\x02e.", "\x8a\x01\x05."} {
		if err := checkPickle([]byte(s)); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// FuzzPickle exercises the pickle check, gopickle and the class rebuilders
// on small streams (FuzzPlanetoid covers whole datasets).
func FuzzPickle(f *testing.F) {
	for _, b := range synthPlanetoid(false, false, false)[:5] {
		f.Add(b)
	}
	f.Add([]byte("\x80\x02(K\x01K\x02d."))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, load := range []func() error{
			func() error { _, err := loadCSR("p", b); return err },
			func() error { _, err := loadLabelMatrix("p", b, 3); return err },
			func() error { _, err := loadAdjacencyDict("p", b, 6); return err },
		} {
			if err := load(); err != nil && err.Error()[:3] != "p: " {
				t.Fatalf("error %q does not name the file", err)
			}
		}
	})
}
