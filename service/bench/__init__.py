"""Benchmarks of shot attribution against the simulated mat, whose ground truth is kept on the side.

They join the two sides the service keeps apart: attribution (``service.attribution``) and the simulator
(``service.simulator``), so neither imports the other.
"""
