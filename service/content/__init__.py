"""What every game's content shares: strict YAML reading, overlays, JSON Schema validation and the records'
common parts.

A game's content module (``service.games.<game>``'s) names its files (``sources.FileKind``), reads them with
``reading.read_ruleset`` (``content/<ruleset>/*.yaml`` shipped with the package, an organiser's overlay laid
over them, every record validated against its JSON Schema) and builds its own cards; ``records`` holds what
every record has (``Record``: id, printed name, provenance marks) and the shot icons printed on cards
(``ShotSpec``). Problems raise ``ContentError`` naming the file and key path. ``hardware`` checks the units of
``content/hardware/``.
"""

from service.content.errors import ContentError, Problem
from service.content.records import Record, ShotAlternatives, ShotSequence, ShotSpec

__all__ = ["ContentError", "Problem", "Record", "ShotAlternatives", "ShotSequence", "ShotSpec"]
