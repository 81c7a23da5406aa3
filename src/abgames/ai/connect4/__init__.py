"""Connect Four intelligence: the heuristic player (and, later, the exact solver)."""
