"""Threat cards in the flight's language: every base card has a ru and cs name and X/Y/Z texts,
and a Russian flight names no threat in English (log, announcements, deck, result)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games.space_alert.mission._deck import threat_line
from bot.games.space_alert.mission._log_i18n import describe
from bot.games.space_alert.mission._station import card_text
from bot.games.space_alert.threat_names import threat_name, threat_text
from engine.flight.views import ThreatView, card_view
from engine.threats.catalog import base_cards
from tests.bot.helpers import start_flight, tick

IDS = (
    [f"E1-{i:02d}" for i in range(1, 11)]
    + [f"E2-{i:02d}" for i in range(1, 8)]
    + [f"SE1-{i:02d}" for i in range(1, 9)]
    + [f"SE2-{i:02d}" for i in range(1, 7)]
    + [f"I1-{i:02d}" for i in range(1, 8)]
    + [f"SI1-{i:02d}" for i in range(1, 7)]
    + [f"I2-{i:02d}" for i in range(1, 7)]
    + [f"SI2-{i:02d}" for i in range(1, 6)]
)
ENGLISH_NAMES = re.compile(
    r"\b(" + "|".join(re.escape(c.name) for c in sorted(base_cards().values(), key=lambda c: -len(c.name))) + r")\b"
)


def test_the_55_base_cards_are_the_engine_cards() -> None:
    assert len(IDS) == 55 and set(IDS) == set(base_cards())


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_every_card_has_a_name_and_xyz_texts(lang: str) -> None:
    for tid in IDS:
        card = base_cards()[tid]
        name = threat_name(lang, tid)
        assert name and name != tid, (lang, tid)
        for letter in "XYZ":
            text = threat_text(lang, tid, letter)
            assert text and text != card.text[letter], (lang, tid, letter)
            if lang == "ru":
                assert re.search("[а-яё]", text, re.I), (tid, letter, text)
        if lang == "ru":
            assert re.search("[а-яё]", name, re.I) and not ENGLISH_NAMES.search(name), (tid, name)


def test_rulebook_names() -> None:
    ru = {tid: threat_name("ru", tid) for tid in IDS}
    assert ru["E1-03"] == "Невидимый истребитель" and ru["E2-03"] == "Истребитель-фантом"
    assert ru["SE1-03"] == "Мамонт" and ru["SE2-05"] == "Мститель" and ru["SI2-02"] == "Охотник"
    assert ru["I1-07"] == "Нестабильные боеголовки" and ru["SI2-05"] == "Ядерный заряд"
    assert threat_name("cs", "SI1-03") == "Vetřelec" and threat_name("cs", "I2-01") == "Sliz"
    # English and unknown languages keep the engine's card; an unknown id stays an id
    assert threat_name("en", "E1-02") == "Destroyer" and threat_name("de", "E1-02") == "Destroyer"
    assert threat_text("en", "E1-02", "X") == "attack 1"
    assert threat_name("ru", "E9-99") == "E9-99"


def test_the_log_uses_translated_names_and_card_texts() -> None:
    line = describe("ru", {"kind": "threat_action", "threat": "E1-02", "letter": "Y", "card_text": "attack 2"})
    assert line == "Эсминец (E1-02) выполняет действие Y: атака 2"
    line = describe("cs", {"kind": "mission_lost", "threat": "SE2-05", "zone": None})
    assert "Nemesis (SE2-05)" in line
    line = describe("ru", {"kind": "knocked_out", "player": "Ann", "station": "space", "cause": "SE2-01"})
    assert "Бегемот (SE2-01)" in line and "Behemoth" not in line
    line = describe("ru", {"kind": "threat_damage", "threat": "E1-07", "zone": "red", "total": 5, "weapons": ["heavy"],
                           "shield": 2, "damage": 3})  # fmt: skip
    assert "тяжёлая лазерная пушка" in line and "laser" not in line


def test_cards_and_announcements_in_the_flights_language() -> None:
    assert card_text("ru", card_view("a<01")) == "🔫 A: огонь · ⬅️ к красному сектору"
    heroic = card_text("cs", card_view("H1"))
    assert heroic.startswith("⭐") and "dolní modré" in heroic and "lower" not in heroic and "H1" not in heroic
    line = threat_line("cs", ThreatView(id="E1-02", name="Destroyer", turn=3, zone="red", track="T2"))
    assert "**Torpédoborec**" in line and "X: útok 1" in line


@pytest.mark.parametrize("mission", ["S1-3", "S2-2", "S2-5", "S2-8"])
def test_a_russian_resolution_log_names_no_threat_in_english(mission: str) -> None:
    from engine.flight.machine import Flight

    flight = Flight.start(
        {
            "crew": ["Ann", "Bob", "Cid"],
            "mission": mission,
            "seed": 3,
            "lang": "ru",
            "normal_difficulty": "mixed",
            "serious_difficulty": "mixed",
        }
    )
    flight.advance_to(10_000)
    log = flight.resolve(log=True).to_json_dict(with_log=True)["log"]
    threats = [e for e in log if e.get("threat")]
    assert threats
    for entry in log:
        line = describe("ru", entry)
        assert not ENGLISH_NAMES.search(line), line


async def test_a_russian_flight_names_threats_in_russian_everywhere(bot: Any, world: Any, clock: Any) -> None:
    fid, _ann, _bob = await start_flight(bot, world, language="ru")
    service = bot.get_cog("Mission").flights
    clock.advance(300)
    await tick(service, fid)
    texts = "\n".join(s.content or "" for s in world.channel.sent)
    assert "⚠️" in texts and re.search(r"\*\*[А-ЯЁ][а-яё]", texts)  # announcements with Russian names
    deck = world.channel.edits[-1][1]["embed"]
    assert not ENGLISH_NAMES.search(deck.fields[0].value), deck.fields[0].value

    clock.advance(1000)
    assert await tick(service, fid) is None
    result = [s for s in world.channel.sent if s.embed is not None][-1]  # the result, after the deck
    log = "\n".join(s.content for s in world.channel.messages[world.channel.sent.index(result)].thread.sent)
    everything = "\n".join([texts, log, *(f.value for f in result.embed.fields), result.embed.description or ""])
    assert "Бортовой" in log or "журнал" in log.lower()
    assert not ENGLISH_NAMES.search(everything), ENGLISH_NAMES.search(everything)
