"""The engine's kernels as a family: ``compiled`` (numba, the steady state),
``numpy_twins`` (the same doubles in numpy, for a process's first grades) and ``jit``
(numba imported at a kernel's first call, the decorator games' kernels use too)."""
