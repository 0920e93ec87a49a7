"""JSON Schemas (Draft 2020-12) of the guided calibration's report file, shipped with the package."""
