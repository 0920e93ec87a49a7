"""JSON Schemas (Draft 2020-12) of the camera's files (docs/camera.md), shipped with the package."""
