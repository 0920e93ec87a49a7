"""Shot attribution: which pieces the flicked piece hit directly, as a posterior over hit sets."""

from .infer import Attribution, AttributionConfig, Candidate, attribute
from .trace import ShotTrace, TraceFormatError, read_traces, write_traces

__all__ = [
    "Attribution",
    "AttributionConfig",
    "Candidate",
    "ShotTrace",
    "TraceFormatError",
    "attribute",
    "read_traces",
    "write_traces",
]
