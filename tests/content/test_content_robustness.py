"""Whatever an organiser writes in an overlay, loading either works or raises ContentError naming the
overlay file: never another exception, and the shipped content is unharmed."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.content import ContentError
from service.games.catacombs.content import load_content

SHIPPED = load_content("catacombs-3e")

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=30),
    st.sampled_from(["melee", "mele", "poison", "orc", "troll", "", "x" * 3, "The Barracks"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["shot", "modifier", "count", "kind", "monster", "level_1"]), inner, max_size=3
        ),
    ),
    max_leaves=8,
)
FILES = {
    "monsters.yaml": ("monsters", sorted(SHIPPED.monsters)),
    "rooms.yaml": ("rooms", sorted(SHIPPED.rooms)),
    "lords.yaml": ("lords", sorted(SHIPPED.lords)),
    "heroes.yaml": ("heroes", sorted(SHIPPED.heroes)),
    "layouts.yaml": ("layouts", sorted(SHIPPED.layouts)),
}
FIELDS = [
    "name",
    "health",
    "level",
    "shot_sequences",
    "quadrants",
    "minions",
    "nullifies",
    "slots",
    "starting_health",
    "difficulty",
    "abilities",
    "unverified_fields",
    "bogus",
]


@st.composite
def overlay_files(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    filename = draw(st.sampled_from(sorted(FILES)))
    key, ids = FILES[filename]
    record_id = draw(st.one_of(st.sampled_from(ids), st.just("newcomer")))
    record = draw(st.dictionaries(st.sampled_from(FIELDS), values, min_size=1, max_size=3))
    return filename, {key: {record_id: record}}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(overlay_files())
def test_any_overlay_loads_or_is_refused_with_its_file_named(case: tuple[str, dict[str, Any]]) -> None:
    filename, document = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / filename
        path.write_text(yaml.safe_dump(document), encoding="utf-8")
        try:
            load_content("catacombs-3e", overlay=Path(tmp))
        except ContentError as error:
            assert error.problems
            assert all(problem.file == str(path) for problem in error.problems), error
    assert load_content("catacombs-3e") == SHIPPED
