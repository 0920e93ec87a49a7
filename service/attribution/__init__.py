"""Shot attribution: which pieces the flicked piece hit directly, as a posterior over hit sets.

The shot trace it reads (``ShotTrace``, ``read_traces``) is one of the mat's shared types, in
``service.mat.trace``.
"""

from .infer import Attribution, AttributionConfig, Candidate, attribute

__all__ = [
    "Attribution",
    "AttributionConfig",
    "Candidate",
    "attribute",
]
