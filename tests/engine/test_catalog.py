"""The threat card data (rulebook §1: 55 threat cards in four decks) against the registries in code.

What a card may name is derived from the code: ops from `OPS` (with the parameters each op reads),
traits from `TRAITS`, card fields from `CARD_FIELDS`.  A trait in the registry must also be read
somewhere in the rules, so a trait that nothing reads fails here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from engine.resolution.card_actions import OPS
from engine.threats.catalog import CARD_FIELDS, LETTERS, TRAITS, base_cards, iter_ops, raw_cards

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def test_1_there_are_55_base_threat_cards_in_four_decks() -> None:
    cards = base_cards()
    assert len(cards) == 55
    decks = Counter(c.deck for c in cards.values())
    assert decks == {"common_external": 17, "serious_external": 14, "common_internal": 13, "serious_internal": 11}


def test_every_op_named_by_the_card_data_is_implemented_with_the_parameters_it_reads() -> None:
    for raw in raw_cards():
        for letter in LETTERS:
            for op in iter_ops(raw[letter]):
                assert op["op"] in OPS, (raw["id"], letter, op)
                unread = set(op) - {"op"} - OPS[op["op"]].params
                assert not unread, (raw["id"], letter, op["op"], unread)


def test_every_card_field_is_one_the_loader_knows() -> None:
    for raw in raw_cards():
        assert set(raw) <= CARD_FIELDS, (raw["id"], set(raw) - CARD_FIELDS)


def test_every_trait_named_by_the_card_data_is_in_the_registry() -> None:
    named = {trait for card in base_cards().values() for trait in card.traits}
    assert named <= set(TRAITS)


def test_every_registered_trait_is_read_by_the_rules() -> None:
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for folder in ("resolution", "threats")
        for path in (ENGINE / folder).glob("*.py")
        if path.name != "catalog.py"
    )
    # a rule reads a trait through ThreatCard.has("…") or, in the hottest loops, `"…" in card.traits`
    read = set(re.findall(r'has\("([a-z_0-9]+)"\)', source))
    read |= set(re.findall(r'"([a-z_0-9]+)" in [a-z_.]*traits\b', source))
    assert set(TRAITS) == read, set(TRAITS) ^ read


def test_player_facing_texts_carry_no_reviewer_notes() -> None:
    for card in base_cards().values():
        assert set(card.text) == set(LETTERS), card.id
        for letter, text in card.text.items():
            assert "resolver" not in text and text.strip(), (card.id, letter, text)


def test_scout_and_marauder_bonuses_come_from_their_data() -> None:
    scout, marauder = base_cards()["E2-02"], base_cards()["E2-06"]
    assert "global_external_attack_bonus" in scout.op_names
    assert "global_external_shield_bonus" in marauder.op_names
    assert [op["amount"] for op in scout.actions["X"]] == [1]
