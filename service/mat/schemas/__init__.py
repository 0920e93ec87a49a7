"""JSON Schemas (Draft 2020-12) of the shot trace (docs/trace-format.md), shipped with the package."""
