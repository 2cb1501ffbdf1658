package models

// globalSpecs registers GloGNN, GGCN.
func globalSpecs() []Spec {
	return []Spec{glognnSpec(), ggcnSpec()}
}
