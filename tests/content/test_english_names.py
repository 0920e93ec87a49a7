"""Catacombs 1E's cards are printed in Italian (catacombs-1e-rules-italian.txt); each shipped card, hero,
Lord, monster and Room card carries its English name beside the printed one (``english_name``), checked by
the content schema like every other field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from service.content import ContentError
from service.games.catacombs.content.first_edition import load_catacombs1e_content

CONTENT = Path(__file__).resolve().parents[2] / "content" / "catacombs-1e"


def test_every_shipped_1e_card_has_an_english_name_and_keeps_its_printed_name() -> None:
    cards = load_catacombs1e_content()  # the schema accepts the field
    for path in sorted(CONTENT.glob("*.yaml")):
        for key, records in yaml.safe_load(path.read_text(encoding="utf-8")).items():
            for rid, record in records.items():
                assert record.get("english_name"), f"{path.name}: {key}.{rid} has no english_name"
                assert record["english_name"] != record["name"] or record["name"] in (
                    "Troll",
                    "Zombie",
                    "Lich",
                )
    assert cards.hero("barbaro").name == "Barbaro"  # the rules keep the printed name (and its ids)


def test_an_english_name_that_is_not_text_is_refused_with_its_file_and_key(tmp_path: Path) -> None:
    directory = tmp_path / "organiser"
    directory.mkdir()
    (directory / "heroes.yaml").write_text(
        textwrap.dedent(
            """
            heroes:
              barbaro:
                english_name: [Barbarian]
            """
        ),
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as caught:
        load_catacombs1e_content(overlay=directory)
    said = " ".join(str(p) for p in caught.value.problems)
    assert "heroes.yaml" in said and "english_name" in said
