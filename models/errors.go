package models

import "fmt"

// OptionError is a hyperparameter outside its range, by its JSON key (the
// key of --set and of config files). Every range error of a Validate is one,
// wrapped with the model's name: errors.As finds it.
type OptionError struct {
	Key   string
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
