"""JSON Schemas (Draft 2020-12) of the files the hub reads back, shipped with the package."""
