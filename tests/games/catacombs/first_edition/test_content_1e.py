"""The Catacombs 1E card data: validated, stand-ins listed, an organiser's overlay supplies printed facts."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.content import ContentError
from service.games.catacombs.content.first_edition import load_catacombs1e_content, unverified


def test_the_shipped_cards_name_what_the_manual_states() -> None:
    """catacombs-1e-rules-italian.txt: Componenti; Preparazione degli eroi; Abilità dei mostri"""
    cards = load_catacombs1e_content()
    assert {h.id for h in cards.heroes()} == {"barbaro", "elfo", "ladra", "mago"}
    assert cards.monster("orco").health == 2 and cards.monster("scheletro-guerriero").reward_gold == 200
    assert cards.has("minotauro", "retaliation") and cards.has("troll", "regeneration")
    assert cards.has("spirito-del-fuoco", "fire_wall") and cards.has("zombie", "feeding_frenzy")
    assert cards.has("demone-del-fuoco", "absorption")
    assert cards.lord("dragone").mercenary_monster == "spirito-del-fuoco"
    assert cards.hero("ladra").extra_gold_per_kill == 100


def test_unknown_card_facts_are_marked_and_an_overlay_supplies_them(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Mostri (the gold a Monster card gives)"""
    assert ("monsters", "orco", ["pieces", "reward_gold", "shot_sequences"]) in unverified()
    (tmp_path / "monsters.yaml").write_text(
        "monsters:\n  orco:\n    reward_gold: 100\n    unverified_fields: {}\n", encoding="utf-8"
    )
    assert load_catacombs1e_content(tmp_path).monster("orco").reward_gold == 100
    assert all(rid != "orco" for _, rid, _ in unverified(tmp_path))


def test_a_bad_value_is_refused_naming_the_file_and_the_key(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Mostri (1 or 2 health points)"""
    (tmp_path / "monsters.yaml").write_text("monsters:\n  orco:\n    health: 3\n", encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_catacombs1e_content(tmp_path)
    assert "monsters.yaml" in str(caught.value) and "orco.health" in str(caught.value)
