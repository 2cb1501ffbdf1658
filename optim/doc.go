// Package optim holds the first-order optimizers used to train the models:
// [Adam] (with PyTorch's coupled L2 weight decay), AdamW (decoupled weight
// decay, made by [NewAdamW]) and [SGD] with momentum.
//
// The update rules follow torch.optim step for step, so that hyper-parameters
// taken from papers and reference code mean the same thing here. Parameters
// are organised in groups ([Group]) that carry their own learning rate and
// weight decay, as some baselines decay different layers differently.
//
// Optimizer state (moments, momentum buffers) is float32, one slice per
// parameter allocated when the parameter is added; Step allocates nothing.
// Adam's per-element arithmetic is float32, as torch.optim.Adam's on float32
// parameters (its constants are computed in float64 and rounded once); SGD's
// is float64, rounded once per value.
package optim
