"""Blind review of generated cases: a random sample, reviewed with the definitions only."""
