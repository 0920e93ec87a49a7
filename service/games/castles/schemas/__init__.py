"""The JSON Schema (Draft 2020-12) of a Catacombs & Castles table file's ``game`` section (package data)."""
