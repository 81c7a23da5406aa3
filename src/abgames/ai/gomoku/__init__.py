"""Gomoku intelligence."""
