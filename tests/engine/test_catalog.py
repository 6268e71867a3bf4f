"""The threat card data (rulebook §1: 55 threat cards in four decks) and the ops it names."""

from __future__ import annotations

from collections import Counter

from engine.threats.catalog import base_cards
from engine.threats.ops import unknown_ops

KNOWN_TRAITS = {
    "double_damage", "stealth_until_x", "pulse_strips_shield", "cryoshield", "rocket_immune",
    "heavy_laser_immune", "rocket_fizzles", "swarm", "leviathan", "untargetable_at_range_3",
    "behemoth", "rocket_magnet", "retaliates", "rockets_are_health", "fissure", "multi_station_bonus",
    "slime", "overheated", "seeker", "contamination", "needs_three",
}  # fmt: skip


def test_1_there_are_55_base_threat_cards_in_four_decks() -> None:
    cards = base_cards()
    assert len(cards) == 55
    decks = Counter(c.deck for c in cards.values())
    assert decks == {"common_external": 17, "serious_external": 14, "common_internal": 13, "serious_internal": 11}


def test_every_op_named_by_the_card_data_is_implemented() -> None:
    assert unknown_ops() == set()


def test_every_trait_named_by_the_card_data_is_one_the_rules_read() -> None:
    named = {trait for card in base_cards().values() for trait in card.traits}
    assert named <= KNOWN_TRAITS
