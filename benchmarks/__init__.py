"""Benchmarks run by hand (`make bench`, `python -m benchmarks`); not part of the tests."""
