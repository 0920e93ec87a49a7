"""JSON Schemas (Draft 2020-12) of the tag lists the sensing layer reads, shipped with the package."""
