"""The Cavern of Soloth expansion is shipped as a layer over the base game, every record of it unverified."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.content import ContentError
from service.games.catacombs.content import load_content


def test_soloth_adds_its_cards_to_the_base_game() -> None:
    base = load_content("catacombs-3e")
    both = load_content("catacombs-3e", expansions=("soloth",))
    # Reference data: 44 monsters (26 base + 18 Soloth), 66 battle rooms (28 + 38), 8 lords (4 + 4).
    assert (len(both.monsters), len(both.rooms), len(both.lords)) == (44, 66, 8)
    added = [r for r in both.all_records() if r.set == "soloth"]
    assert added and all(not record.verified for record in added)
    assert all(both.monsters[mid] == card for mid, card in base.monsters.items())
    assert both.files[-1].startswith("content/catacombs-3e/soloth/")


def test_the_siren_silences_ranged_shots_while_it_lives() -> None:
    siren = load_content("catacombs-3e", expansions=("soloth",)).monsters["siren"]
    assert [s.shot for s in siren.suppresses_while_alive] == ["missile", "ice", "fireball", "target"]


def test_the_hydra_picks_its_sequence_by_remaining_health() -> None:
    hydra = load_content("catacombs-3e", expansions=("soloth",)).lords["kaulaurn-the-hydra"]
    assert hydra.sequence_selection == "by_remaining_health"
    assert [(b.sequence, b.min_health, b.max_health) for b in hydra.health_bands] == [
        (1, 7, None),
        (2, 4, 6),
        (3, 1, 3),
    ]
    assert hydra.note and "check the Setup card" in hydra.note


def test_an_unknown_expansion_is_named() -> None:
    with pytest.raises(
        ContentError, match=r"content/catacombs-3e/sloth: no such expansion; known: \['castles', 'soloth'\]"
    ):
        load_content("catacombs-3e", expansions=("sloth",))


def test_an_organisers_overlay_corrects_an_expansion_card(tmp_path: Path) -> None:
    (tmp_path / "lords.yaml").write_text(
        "lords:\n  kaulaurn-the-hydra: {starting_health: 8, source: the Setup card, unverified: false}\n"
    )
    content = load_content("catacombs-3e", overlay=tmp_path, expansions=("soloth",))
    hydra = content.lords["kaulaurn-the-hydra"]
    assert (hydra.starting_health, hydra.verified, hydra.set) == (8, True, "soloth")
    assert content.files[-1] == str(tmp_path / "lords.yaml")  # the organiser's layer comes last
    assert "content/catacombs-3e/soloth/lords.yaml" in content.files
