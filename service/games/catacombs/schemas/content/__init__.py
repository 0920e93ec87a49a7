"""JSON Schemas of the Catacombs content records (``content/catacombs-3e/``, ``content/catacombs-1e/``), one
per kind of card; they refer to the shared parts in ``service/content/schemas/common.json``."""
