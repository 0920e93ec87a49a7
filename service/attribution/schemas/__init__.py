"""JSON Schemas (Draft 2020-12) of the calibration file (docs/calibration.md), shipped with the package."""
