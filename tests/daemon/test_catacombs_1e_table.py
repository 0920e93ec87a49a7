"""Catacombs 1E at the table, on fakes: the Barbarian's rage track through the daemon's command path, as the
referee's page or the turn controller sends it, and as phones read it from the retained state."""

from __future__ import annotations

from tests.helpers.game_script import GameScript


def test_the_rage_track_is_published_raised_and_corrected_through_commands() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi (level 2 of the rage track, "non livello 3");
    Punti importanti (4: the Keeper is the final arbiter)"""
    table = GameScript.playing("catacombs-1e")
    try:
        assert table.character("hero-barbaro")["rage"] == 2
        assert "rage" not in table.character("hero-elfo")
        assert table.send("gain_rage", character="hero-barbaro")["ok"]
        assert table.character("hero-barbaro")["rage"] == 3
        refused = table.send("gain_rage", character="hero-barbaro")
        assert not refused["ok"] and "ends at level 3" in refused["error"]
        assert "catacombs-1e-rules-italian.txt: Preparazione degli eroi" in str(refused)
        corrected = table.send("correct", target="hero-barbaro", field="rage", value=1, reason="misread")
        assert corrected["ok"]
        assert table.character("hero-barbaro")["rage"] == 1
        assert not table.send("correct", target="hero-elfo", field="rage", value=1, reason="no track")["ok"]
        assert any("rage" in text for text in table.event_texts())
    finally:
        table.close()
