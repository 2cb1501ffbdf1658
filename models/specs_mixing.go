package models

// mixingSpecs registers MixHop, GCNII, H2GCN-1, H2GCN-2.
func mixingSpecs() []Spec {
	return nil
}
