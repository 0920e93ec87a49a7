"""The JSON Schema (Draft 2020-12) of a Catacombs table file's ``game`` section, shipped with the package."""
