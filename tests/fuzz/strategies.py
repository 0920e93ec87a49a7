"""Hypothesis strategies shared by the fuzz targets: JSON values, text with awkward characters, YAML."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

# Text that breaks naive code: control characters, NUL, bidi overrides, non-BMP, lone surrogates (JSON can
# escape them), very long runs of one character.
AWKWARD = st.sampled_from(
    ["", "\x00", "\u202e", "\U0001f409", "\ud800", "\udc00", "\ufeff", "é", "Ä", "../", "%", "{", "[", "\\"]
)
text = st.one_of(st.text(max_size=24), AWKWARD, st.text(alphabet="[{", min_size=30, max_size=200))
numbers = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(-3, 30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
)
json_scalars = st.one_of(st.none(), numbers, text)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(text, st.sampled_from(["a", "b"])), inner, max_size=4),
    ),
    max_leaves=12,
)


def dumps(value: Any) -> str:
    """JSON as Python writes it (NaN and Infinity included, as a careless sender would)."""
    return json.dumps(value, ensure_ascii=False)


def latin1_text(max_size: int = 40) -> st.SearchStrategy[str]:
    """Header-safe text: printable Latin-1, no CR/LF (what a WSGI server can hand the app)."""
    alphabet = st.characters(min_codepoint=0x20, max_codepoint=0xFF, blacklist_characters="\x7f")
    return st.text(alphabet=alphabet, max_size=max_size)


@st.composite
def mutated_bytes(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few bytes flipped, cut, inserted or repeated."""
    buffer = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "cut", "insert", "repeat", "truncate"]))
        if not buffer:
            buffer += draw(st.binary(min_size=1, max_size=4))
            continue
        at = draw(st.integers(0, len(buffer) - 1))
        if op == "flip":
            buffer[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del buffer[at : at + draw(st.integers(1, 4))]
        elif op == "insert":
            buffer[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif op == "repeat":
            buffer[at:at] = buffer[at : at + draw(st.integers(1, 8))]
        else:
            del buffer[at:]
    return bytes(buffer)
