package optim

import (
	"math"

	"github.com/pcgcn/pcgcn/autograd"
)

// ClipGradNorm rescales the gradients of params so that their joint L2 norm is
// at most maxNorm, as torch.nn.utils.clip_grad_norm_ does (scale
// maxNorm/(norm+1e-6) when below 1), and returns the norm before clipping.
// Parameters without a gradient are ignored.
func ClipGradNorm(params []*autograd.Var, maxNorm float64) float64 {
	var sq float64
	for _, p := range params {
		if p.Grad == nil {
			continue
		}
		for _, g := range p.Grad.Data {
			sq += float64(g) * float64(g)
		}
	}
	norm := math.Sqrt(sq)
	scale := maxNorm / (norm + 1e-6)
	if scale < 1 {
		for _, p := range params {
			if p.Grad == nil {
				continue
			}
			for i := range p.Grad.Data {
				p.Grad.Data[i] = float32(float64(p.Grad.Data[i]) * scale)
			}
		}
	}
	return norm
}
