// Package npy is the one codec of NumPy's .npy format, shared by graphio
// (datasets, a user's graph, generated graphs) and checkpoint (a saved
// model's weights.npz).
//
// Reading: [Parse] decodes a whole file in memory into an [Array] (format
// versions 1 to 3; bool, signed and unsigned integer, float, and text
// dtypes of either byte order, C or Fortran order), whose methods convert
// its elements; [OpenStream] checks a file's header and size and then
// decodes its payload in chunks ([Stream]), for arrays of millions of rows;
// [ReadFloat32] reads the 2-D float32 matrices a model's weights are.
// Every header goes through one parser of its Python-literal dictionary
// ([ParseHeader]) and one reader of magic, version and length, which
// allocates nothing a short or corrupt file does not hold.
//
// Writing: [HeaderBytes] is the version 1.0 header NumPy writes (padded to
// 64 bytes), [Write] an array whose elements a callback writes, and
// [WriteFloat32] a float32 matrix. What they write is held byte for byte
// by tests: saved models and generated graphs do not change with a release.
//
// The package imports only the standard library, so it sits below every
// package that reads or writes arrays.
package npy
