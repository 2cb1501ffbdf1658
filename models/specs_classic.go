package models

// classicSpecs registers GAT, GraphSAGE, SGC, APPNP.
func classicSpecs() []Spec {
	return []Spec{gatSpec(), sageSpec(), sgcSpec(), appnpSpec()}
}
