"""Helpers shared by the test modules (tests/conftest.py puts tests/ on the path): no
test module imports another."""
