"""The captain's log shows every card a crew member placed (issue 24): a card that did nothing
says why, and threats are always named by name (the card number only in brackets after it)."""

from __future__ import annotations

import re

import pytest

from bot.games.space_alert.mission.render import captains_log
from engine import resolve

# Ann's second B finds the white shield full; Bob's B at lower blue fills the blue reactor; a
# Fighter attacks the white zone.
GAME = {
    "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
    "players": [
        {"name": "Ann", "actions": "bb" + "-" * 10},
        {"name": "Bob", "actions": "c--c---c----"},
    ],
    "threats": [{"id": "E1-07", "turn": 1, "zone": "white"}],
    "seed": 1,
}
WHY = {"en": "what it fills is full already", "ru": "всё и так полно", "cs": "vše je plné"}


@pytest.mark.parametrize("lang", ("en", "ru", "cs"))
def test_a_card_that_did_nothing_is_shown_with_the_reason(lang: str) -> None:
    log = resolve(GAME, log=True).to_json_dict(with_log=True)["log"]
    text = "\n".join(captains_log(lang, log))
    assert any(e["kind"] == "no_effect" and e["reason"] == "already_full" for e in log)
    turn_2 = text.split("\n__")[2]  # the second turn's block
    assert "Ann" in turn_2 and WHY[lang] in turn_2, turn_2


@pytest.mark.parametrize("lang", ("en", "ru", "cs"))
def test_threats_are_named_by_name_never_by_card_number_alone(lang: str) -> None:
    log = resolve(GAME, log=True).to_json_dict(with_log=True)["log"]
    assert any(e["kind"] == "attack" for e in log)
    text = "\n".join(captains_log(lang, log))
    numbers = re.findall(r"(.)(?:E|I|SE|SI)\d-\d\d", text)
    assert numbers and set(numbers) == {"("}, text  # always "Name (E1-07)", never "E1-07 attacks"
