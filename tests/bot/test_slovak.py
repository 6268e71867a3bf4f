"""Slovak reaches a flight: the settings accept it, the intercom speaks it (Slovak rulebook words,
espeak-ng's `sk` voice), the captain's log and threat cards have it, no English left."""

from __future__ import annotations

import re

from bot.games.space_alert.intercom import render
from bot.games.space_alert.threat_names import threat_name, threat_text
from bot.platform.i18n import catalogue
from bot.platform.settings import LANGUAGES, Settings
from engine.flight.script import KINDS
from engine.threats.catalog import base_cards
from engine.vocab import LANGUAGES as LANGS
from voice.tts import ESPEAK_VOICES

ENGLISH = re.compile(r"\b(the|and|threat|zone|phase|data|transfer|repeat|operation|ends|mission)\b", re.I)


def _sample(kind: str) -> str:
    params = {"turn": 3, "zone": "red", "serious": True, "internal": False, "phase": 1, "n": 2, "last": False}
    return render(kind, "sk", **params)


def test_slovak_is_a_language_everywhere_a_flight_speaks() -> None:
    assert "sk" in LANGUAGES and "sk" in LANGS and ESPEAK_VOICES["sk"] == "sk"
    assert "captains_log.event.attack" in catalogue("sk")
    assert Settings(default_language="sk").default_language == "sk"


def test_every_intercom_line_is_slovak() -> None:
    lines = [_sample(kind) for kind in KINDS]
    assert all(line for line in lines)
    assert [line for line in lines if ENGLISH.search(line)] == []
    assert _sample("threat").startswith("Čas T plus tri, vážne ohrozenie v červenej zóne.")
    assert render("threat", "sk", turn=2, zone=None, internal=True, unconfirmed=True, repeat=False) == (
        "Nepotvrdené hlásenie: Čas T plus dva, vnútorné ohrozenie."
    )
    assert _sample("operation_ended") == "Operácia ukončená, vstupujeme do hyperpriestoru."


def test_every_threat_card_has_its_slovak_name_and_texts() -> None:
    for card_id, card in base_cards().items():
        from bot.games.space_alert.threat_names import _threat_locale

        assert _threat_locale()["sk"][card_id]["name"] == threat_name("sk", card_id), card_id  # not a fallback
        for letter in card.text:
            assert threat_text("sk", card_id, letter) != card.text[letter] or not card.text[letter].strip(), card_id
    assert threat_name("sk", "E2-06") == "Hunter"  # the Slovak rulebook's name (§7.1)
