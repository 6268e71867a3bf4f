"""The Slovak interface (bot/platform/locales/sk.json): complete, same placeholders as English, and in the
Slovak rulebook's words (seed 001) rather than in Czech."""

from __future__ import annotations

import re

from bot.platform.i18n import catalogue, t
from tests.bot.test_one_catalogue import may_stay_the_same, same_placeholders


def test_every_english_key_is_in_slovak_with_the_same_placeholders() -> None:
    english, slovak = catalogue("en"), catalogue("sk")
    assert set(slovak) == set(english)
    for key, text in english.items():
        assert same_placeholders(key, text, slovak[key]), key
        if not may_stay_the_same(key, text):
            assert slovak[key] != text, (key, "untranslated")


def test_slovak_not_czech() -> None:
    """Czech-only letters appear only inside the quoted Czech announcements of the recordings."""
    for key, text in catalogue("sk").items():
        outside_quotes = re.sub(r"„[^“]*“", "", text)
        assert not set("řůěŘŮĚ") & set(outside_quotes), key
    everything = " ".join(catalogue("sk").values())
    assert set("äôľ") <= set(everything)


def test_rulebook_vocabulary() -> None:
    assert t("sk", "log.title") == "Letový denník"  # 6.3 SKÓRE A LETOVÝ DENNÍK
    assert t("sk", "role.comms") == "Radista" and t("sk", "role.security") == "Bezpečnostný dôstojník"
    assert "tímy robotov" in t("sk", "penalty.battlebots")
    assert "časť lode" in t("sk", "score.worst_zone", n=3)
    assert t("sk", "comm.restored").endswith("Spojenie obnovené.")
    # the intercom's announcements keep the Czech wording of the Slovak edition's recordings
    assert "Příchozí data" in t("sk", "deck.incoming") and "Přenos dat" in t("sk", "deck.transfer")
