"""Engine protocols, both sides: the Gomocup "pbrain" engine and a client for other engines."""
