"""Test helpers shared by several parts of the test suite."""
