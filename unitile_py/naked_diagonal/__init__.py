"""Naked Diagonal, the connection game by Mark Steere: the rules engine."""
