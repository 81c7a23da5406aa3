"""Per-game intelligence: evaluations, move ordering, solvers and the players of each level.

Importing this package settles where numba caches the compiled kernels (see
``kernel_cache``) before any kernel module is imported.
"""

from abgames.ai import kernel_cache

kernel_cache.configure()
