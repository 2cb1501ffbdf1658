package models

// classicSpecs registers GAT, GraphSAGE, SGC, APPNP.
func classicSpecs() []Spec {
	return nil
}
