// Package testkit is the toolkit's test support at the tensor level: random
// dense and sparse matrices, approximate and exact comparisons, the check
// of an expected error or panic, labelled point clouds, and a toy graph in the user
// format written to a directory. It imports only tensor and rng, so the
// tests of every package above tensor can use it (tensor's own tests cannot:
// they keep their helpers beside them). Its siblings hold the rest of the
// test support: testkit/graphtest (toy graphs in memory, for the tests above
// graph), testkit/ref64 (float64 reference arithmetic) and testkit/datatest
// (the dataset mirror).
//
// Only tests import these packages; TestOnlyTestsImport holds that.
package testkit
