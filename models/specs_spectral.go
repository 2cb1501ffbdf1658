package models

// spectralSpecs registers FAGCN, GPRGNN, LINKX.
func spectralSpecs() []Spec {
	return []Spec{fagcnSpec(), gprgnnSpec(), linkxSpec()}
}
