package models

// mixingSpecs registers MixHop, GCNII, H2GCN-1, H2GCN-2.
func mixingSpecs() []Spec {
	return []Spec{mixhopSpec(), gcniiSpec(), h2gcnSpec(1), h2gcnSpec(2)}
}
