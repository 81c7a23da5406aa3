"""Small external Gomocup brains for the protocol and arena tests (run as scripts)."""
