"""JSON Schemas of the Catacombs & Castles content records (``content/catacombs-and-castles-*/``), one per
kind of card; they refer to the shared parts in ``service/content/schemas/common.json``."""
