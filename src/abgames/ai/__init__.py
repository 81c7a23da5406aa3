"""Per-game intelligence: evaluations, move ordering, solvers and the players of each level."""
