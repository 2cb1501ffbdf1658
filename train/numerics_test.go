package train

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/pcgcn/pcgcn/graph"
	"github.com/pcgcn/pcgcn/models"
	"github.com/pcgcn/pcgcn/tensor"
)

// numericsGolden holds, per tensor.Numerics value, a fingerprint of the
// parameters that 30 epochs of training leave on Cornell's split 0 for each
// model below. A change to the kernels that alters any rounding changes
// these fingerprints; when that is intended, bump tensor.NumericsVersion
// and record the new values (the test prints them), so that saved
// experiment cells of the old numerics are known to be stale. A build whose
// numerics have no entry here fails too, printing the values to record: a
// new path (an architecture, a kernel) is checked from its first run on.
// The arm64 values were computed under qemu-aarch64 (.ci/run runs this
// test there), whose floating point is bit-exact emulation of the hardware's.
var numericsGolden = map[string]map[string]uint64{
	"v2-avx2":                    {"pcgcn": 0x78c2fcef33c691c9, "gcn": 0x7263b42625dbf91e, "gat": 0x7993e1cec65fc6e3, "mlp": 0xa636754832a843d2},
	"v2-generic-amd64":           {"pcgcn": 0xb1ed71b6f2d65d8b, "gcn": 0x9758ebaa74228a5f, "gat": 0x4fb6cb5b6eed3980, "mlp": 0xee35f15c3122d189},
	"v2-avx2-goamd64v3":          {"pcgcn": 0xab788b8e5b4332b7, "gcn": 0x7cf369e24317dd2c, "gat": 0xb16ed19b2da94359, "mlp": 0xc715ab80a8bbfa51},
	"v2-generic-amd64-goamd64v3": {"pcgcn": 0xf58226680d1a6dac, "gcn": 0x7575f4e816a2e0a6, "gat": 0xb056f7af17c68b17, "mlp": 0xeee2eb00d8117b62},
	"v2-generic-arm64-fma":       {"pcgcn": 0x463d5ceed2131077, "gcn": 0xd16b0d1424fad8f1, "gat": 0x316124b6b0450252, "mlp": 0xa83d07ca3d9aa7cf},
}

func TestNumericsGolden(t *testing.T) {
	g := loadCornell(t)
	reg := models.NewRegistry()
	want, known := numericsGolden[tensor.Numerics()]
	for _, name := range []string{"pcgcn", "gcn", "gat", "mlp"} {
		got := paramsFingerprint(t, g, reg, name)
		switch {
		case !known:
			t.Errorf("%s: no golden values for numerics %s; record them in numericsGolden: %s gives %#x", name, tensor.Numerics(), name, got)
		case want[name] != got:
			t.Errorf("%s: numerics %s gives parameters fingerprinted %#x, golden %#x. If the kernels changed their rounding on purpose, bump tensor.NumericsVersion and record the new fingerprints", name, tensor.Numerics(), got, want[name])
		}
	}
}

// paramsFingerprint trains the model name's Cornell preset for 30 epochs on
// split 0 of g (2 threads) and returns the FNV-1a hash of its parameters'
// bits: what the golden tests compare across builds.
func paramsFingerprint(t *testing.T, g *graph.Graph, reg *models.Registry, name string) uint64 {
	t.Helper()
	spec, err := reg.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	opt := quickOpts(2)
	opt.Epochs = 30
	r, err := Run(g, 0, spec, spec.Preset("cornell"), opt)
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var buf [4]byte
	for _, p := range r.Model.Params() {
		for _, v := range p.Value.Data {
			b := math.Float32bits(v)
			buf[0], buf[1], buf[2], buf[3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
			h.Write(buf[:])
		}
	}
	return h.Sum64()
}
