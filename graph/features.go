package graph

// NonNegative reports whether every feature value is ≥ 0: row
// normalisation (RowNormalized) means something only then, as for the
// bag-of-words and count features of the benchmark datasets. Signed
// features (embeddings, standardised columns) are not rescaled by it but
// distorted: a row whose values nearly cancel is blown up.
func (f Features) NonNegative() bool {
	data := f.Dense
	var vals []float32
	if f.Sparse != nil {
		vals = f.Sparse.Val
	} else if data != nil {
		vals = data.Data
	}
	for _, v := range vals {
		if v < 0 {
			return false
		}
	}
	return true
}
