"""A referee's answers to held shots: read one per held shot, checked, made a labelled reading.

The protocol (``smartmat attribute … --learn --referee -``, docs/attribution.md): after the answer line of a
shot it did not apply, the reader reads one line, ``{"direct_hits": ["orc-1", …]}`` (every piece the flicked
disc touched directly; ``[]`` for none) or ``{"direct_hits": null}`` (no answer). A line that is not such an
answer is reported and taken as no answer; the end of the input means no more answers.

An answer is a label, not the truth: the referee may be wrong. :func:`labelled_reading` runs the answered hit
set's best rollout again to see which of its contacts the piezos heard and which they did not, and says how
strongly the sensors contradict the answer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from service.mat.trace import ShotTrace

from .evidence import EvidenceParams, ImpactMatch, SoundModel, log_likelihood
from .model import ModelContact, ModelParams, RolloutParams, ShotModel

log = logging.getLogger(__name__)

# An answer whose best rollout fits the sensors this much worse (log-likelihood) than the reading put first
# is one the sensors contradict: it still counts against the gates, but nothing physical is learnt from it.
CONTRADICTED_NATS = 15.0


class AnswerError(ValueError):
    """An answer line that is not an answer; the message says what is wrong with it."""


def parse_answer(line: str, trace: ShotTrace | None) -> frozenset[str] | None:
    """The hit set an answer line gives, or None for ``{"direct_hits": null}``.

    With ``trace``, every piece must be one of the shot's pieces other than the flicked disc. Keys other than
    ``direct_hits`` are ignored (room for a note or a referee's name)."""
    try:
        data = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise AnswerError(f"not JSON ({exc.msg})" if hasattr(exc, "msg") else "not JSON") from None
    if not isinstance(data, dict) or "direct_hits" not in data:
        raise AnswerError('expected {"direct_hits": [piece ids]} or {"direct_hits": null}')
    hits = data["direct_hits"]
    if hits is None:
        return None
    if not isinstance(hits, list) or not all(isinstance(p, str) for p in hits):
        raise AnswerError(f"direct_hits: expected a list of piece ids or null, got {hits!r}")
    if trace is not None:
        known = {spec.piece for spec in trace.pieces}
        unknown = sorted(set(hits) - known)
        if unknown:
            raise AnswerError("direct_hits: no such piece in the shot: " + ", ".join(unknown))
        if trace.declaration.flicked in hits:
            raise AnswerError(f"direct_hits: {trace.declaration.flicked} is the flicked disc itself")
    return frozenset(hits)


class AnswerSource:
    """Answers read one line at a time from a stream (a pipe or a file), one per held shot, in order."""

    def __init__(self, stream: TextIO, name: str, errors: TextIO) -> None:
        self.stream, self.name, self.errors = stream, name, errors
        self.ended = False
        self.read = 0

    def next_answer(self, trace: ShotTrace | None, shot: str) -> frozenset[str] | None:
        """The next answer for ``shot`` (named in messages); None for no answer, a bad line or the end."""
        if self.ended:
            return None
        line = self.stream.readline()
        if not line:
            self.ended = True
            log.info("%s: no more answers after %d", self.name, self.read)
            return None
        self.read += 1
        try:
            return parse_answer(line, trace)
        except AnswerError as exc:
            log.error("%s: answer %d (%s): %s", self.name, self.read, shot, exc)
            print(
                f"error: {self.name}: answer {self.read} ({shot}): {exc}; taken as no answer",
                file=self.errors,
                flush=True,
            )
            return None


@dataclass(frozen=True)
class HitSetEvidence:
    """One hit set's share of a shot's rollouts: its best rollout and the physics its rollouts imply."""

    direct_hits: frozenset[str]
    best_params: RolloutParams
    best_fit: float
    # Posterior (mean, sd) of log friction / disc / wall restitution scale among this set's rollouts alone.
    friction: tuple[float, float]
    disc_restitution: tuple[float, float]
    wall_restitution: tuple[float, float]
    effective_samples: float


@dataclass(frozen=True)
class LabelledReading:
    """The answered hit set as the model can reproduce it: which of its contacts were heard, which not."""

    hits: HitSetEvidence
    matches: tuple[ImpactMatch, ...]
    unheard: tuple[ModelContact, ...]
    contradicted: bool


def labelled_reading(
    trace: ShotTrace,
    by_hits: Sequence[HitSetEvidence],
    sound: SoundModel | None,
    answer: frozenset[str],
    evidence_params: EvidenceParams,
    model_params: ModelParams | None = None,
) -> LabelledReading | None:
    """The answered hit set's best rollout among the shot's (``by_hits``, heard with ``sound``), run again;
    None when no rollout of the shot had that set (the sensors could not reproduce the answer, so it teaches
    nothing physical)."""
    if sound is None:
        return None
    found = next((h for h in by_hits if h.direct_hits == answer), None)
    if found is None or trace.declaration.flicked not in trace.pre.by_piece():
        return None
    best_fit = max(h.best_fit for h in by_hits)
    model = ShotModel(trace, model_params or ModelParams())
    try:
        rollout = model.run(found.best_params)
    finally:
        model.close()
    matches: list[ImpactMatch] = []
    log_likelihood(rollout, trace, rollout.start, sound, evidence_params, None, matches)
    heard = {id(m.contact) for m in matches}
    return LabelledReading(
        found,
        tuple(matches),
        tuple(c for c in rollout.contacts if id(c) not in heard and c.impulse > 0),
        contradicted=best_fit - found.best_fit > CONTRADICTED_NATS,
    )
