package optim

import "fmt"

// AdamState is what Adam carries from one step to the next: the step count
// and each parameter's first and second moments, in the order the
// parameters were added. With the parameters' values it is enough to
// continue a training run later with the same numbers (see package train's
// Checkpoint).
type AdamState struct {
	Step int
	M, V [][]float32
}

// State returns a copy of a's state.
func (a *Adam) State() AdamState {
	s := AdamState{Step: a.step, M: make([][]float32, len(a.slots)), V: make([][]float32, len(a.slots))}
	for i, sl := range a.slots {
		s.M[i] = append([]float32(nil), sl.m...)
		s.V[i] = append([]float32(nil), sl.v...)
	}
	return s
}

// SetState restores a state returned by State of an Adam over parameters of
// the same sizes; it returns an error, and changes nothing, when the sizes
// differ.
func (a *Adam) SetState(s AdamState) error {
	if len(s.M) != len(a.slots) || len(s.V) != len(a.slots) {
		return fmt.Errorf("optim: Adam state of %d and %d moments for %d parameters", len(s.M), len(s.V), len(a.slots))
	}
	for i, sl := range a.slots {
		if len(s.M[i]) != len(sl.m) || len(s.V[i]) != len(sl.v) {
			return fmt.Errorf("optim: Adam state of parameter %d has %d and %d moments for %d elements", i, len(s.M[i]), len(s.V[i]), len(sl.m))
		}
	}
	a.step = s.Step
	for i, sl := range a.slots {
		copy(sl.m, s.M[i])
		copy(sl.v, s.V[i])
	}
	return nil
}
