"""JSON Schemas (Draft 2020-12) of the table file's sections, shipped with the package."""
