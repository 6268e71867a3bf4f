"""The lines the director posts and speaks for each step, with and without a data pack."""

from __future__ import annotations

from bot.games.elite._announce import activation_lines, event_lines, setup_lines, spawn_lines
from engine.common.clock import ManualClock
from engine.elite.datapack import SwarmSpawnCard, load_pack
from engine.elite.exploration import Modifiers
from engine.elite.game import ActivationReport, BossSpawn, EliteGame, SpawnReport
from engine.elite.setup import EliteConfig

CFG = EliteConfig(
    map="abandoned_lab", mission="capture", difficulty="hard", players=4, heroes=("kara", "voker", "akosha", "gerid")
)


def test_setup_lines_name_cells_weapons_clusters_and_traps() -> None:
    game = EliteGame(CFG, 5, ManualClock())
    lines = setup_lines("en", game.setup)
    assert lines[0] == "Abandoned Lab · Capture · Hard · Kara, Voker, Akosha, Gerid"
    assert "Objective cells: 2, 5, 6, 11" in lines
    assert "Deal 6 Basic Weapons face up; each hero takes one." in lines
    assert any("(8 in all)" in line for line in lines)
    ru = setup_lines("ru", game.setup)
    assert ru[0].startswith("Заброшенная Лаборатория · Захват")


def test_without_a_pack_the_crew_is_told_to_draw() -> None:
    report = SpawnReport(2, 5, (), 2, (BossSpawn(None), BossSpawn("naga", 4, 2, None, 1)), 10, False, Modifiers())
    assert spawn_lines("en", report) == ["Draw 5 Swarm Spawn cards.", "All clear.", "Boss: Naga, at cluster 2."]


def test_with_a_pack_the_cards_are_read_out() -> None:
    draws = (SwarmSpawnCard(type="hound", count=3, cluster=1, activation=True), SwarmSpawnCard(type="shooter", count=2))
    report = SpawnReport(
        1, 2, draws, 1, (BossSpawn("firewing", 6, 3, 4, 1),), 0, True, Modifiers(extra_swarm=1, extra_boss=-1)
    )
    assert spawn_lines("en", report) == [
        "Exploration: +1 swarm, -1 boss cards.",
        "Hound ×3 at cluster 1.",
        "They activate now: ability, then move.",
        "Shooter ×2, cluster of your choice.",
        "Boss: Firewing, at cluster 3.",
        "Health 4.",
        "The boss deck is empty.",
    ]


def test_event_and_activation_lines() -> None:
    pack = load_pack({"events": [{"number": n, "name": {"ru": f"Событие-{n}"}} for n in range(1, 26)]})
    game = EliteGame(CFG, 5, ManualClock(), pack)
    reveal = game.begin_round()
    assert reveal is not None
    lines = event_lines("ru", reveal)
    assert lines[0] == "Раунд 1 из 8." and lines[-1] == f"Событие-{reveal.number}"
    assert event_lines("en", reveal)[-1] == f"Событие-{reveal.number}"  # falls back to the text there is
    assert activation_lines("en", ActivationReport(1, 1, ())) == ["Alien Activation.", "Every alien moves 1 more."]
