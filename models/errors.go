package models

import (
	"errors"
	"fmt"
)

// Errors a caller can match with errors.Is. The errors returned wrap them
// and add the name asked for and the valid ones ("unknown model "gnc"
// (valid: pcgcn, appnp, …)").
var (
	// ErrUnknownModel is what Registry.Get wraps when no model has the name.
	ErrUnknownModel = errors.New("unknown model")
	// ErrUnknownOption is what SetOption and LoadOptions wrap when the
	// configuration has no setting of that JSON name.
	ErrUnknownOption = errors.New("unknown option")
)

// OptionError is a hyperparameter outside its range, by its JSON key (the
// key of --set and of config files). Every range error of a Validate is one,
// wrapped with the model's name: errors.As finds it.
type OptionError struct {
	// Key is the option's JSON name ("dropout").
	Key string
	// Value is the rejected value.
	Value any
	// Want is the allowed range, as a phrase: "in [0,1)", "a finite number > 0".
	Want string
}

// Error reads "key must be WANT, got VALUE", a string value quoted.
func (e *OptionError) Error() string {
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("%s must be %s, got %q", e.Key, e.Want, s)
	}
	return fmt.Sprintf("%s must be %s, got %v", e.Key, e.Want, e.Value)
}
