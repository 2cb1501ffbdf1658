#!/usr/bin/env python3
"""Time numpy float32 matrix products at the shapes of tensor's Gemm benchmarks.

Usage: /usr/bin/python3 scripts/bench_numpy_gemm.py [repeats [shape-name]]

For each shape it runs the product `repeats` times (default 20) after a
warm-up and prints the best and median GFLOP/s (2*m*k*n flops per product),
so the figures can be set beside `go test -bench Gemm ./tensor/`.
"""
import statistics
import sys
import time

import numpy as np

# (name, m, k, n, transA, transB) with the same meaning as tensor.Gemm.
SHAPES = [
    ("NN_2277x2325x64", 2277, 2325, 64, False, False),
    ("NN_2708x512x512", 2708, 512, 512, False, False),
    ("TN_2325x2277x64", 2325, 2277, 64, True, False),
    ("NT_2277x64x2325", 2277, 64, 2325, False, True),
    ("NN_2277x64x64", 2277, 64, 64, False, False),
    ("NN_2277x64x5", 2277, 64, 5, False, False),
]


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    only = sys.argv[2] if len(sys.argv) > 2 else None
    rng = np.random.default_rng(1)
    print(f"numpy {np.__version__}")
    for name, m, k, n, ta, tb in SHAPES:
        if only is not None and name != only:
            continue
        a = rng.standard_normal((k, m) if ta else (m, k), dtype=np.float32)
        b = rng.standard_normal((n, k) if tb else (k, n), dtype=np.float32)
        oa = a.T if ta else a
        ob = b.T if tb else b
        c = np.empty((m, n), dtype=np.float32)
        np.matmul(oa, ob, out=c)
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            np.matmul(oa, ob, out=c)
            times.append(time.perf_counter() - t0)
        flops = 2.0 * m * k * n
        print(f"{name}\tbest {flops / min(times) / 1e9:7.1f} GFLOP/s"
              f"\tmedian {flops / statistics.median(times) / 1e9:7.1f} GFLOP/s"
              f"\t({min(times) * 1e3:.3f} ms best)")


if __name__ == "__main__":
    main()
