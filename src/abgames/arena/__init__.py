"""Engine-vs-engine matches: engines, judging, statistics (Elo, SPRT), records and SGF."""
