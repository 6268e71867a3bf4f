"""Refusals are codes in the engine and words in the bot: every code, in every language."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot.games.elite._i18n import error_text
from bot.platform.i18n import catalogue
from engine.common.clock import ManualClock
from engine.elite.datapack import PackError, load_pack
from engine.elite.errors import ERROR_CODES, EliteError
from engine.elite.game import EliteGame, GameError
from engine.elite.setup import EliteConfig
from engine.elite.timer import ActionTimer, TimerError

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "ru", "cs", "sk")
RAISE = re.compile(r'raise \w+Error\(\s*"([a-z_]+)"(.*)')


def raised_in_engine() -> dict[str, set[str]]:
    """code -> the value names it is raised with, read from engine/elite's source."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "engine" / "elite").glob("*.py"):
        for code, args in RAISE.findall(path.read_text(encoding="utf-8")):
            found.setdefault(code, set()).update(re.findall(r"(\w+)=", args))
    return found


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_engine_raises_only_known_codes_and_no_english_sentences() -> None:
    raised = raised_in_engine()
    assert len(raised) >= 20
    assert set(raised) <= set(ERROR_CODES)
    for path in (ROOT / "engine" / "elite").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert not re.search(r'raise (Game|Timer|Exploration|Activation|Pack)Error\(f?"[^"]* ', source), path


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_a_text_in_every_language(lang: str) -> None:
    table, english = catalogue(lang), catalogue("en")
    raised = raised_in_engine()
    for code in ERROR_CODES:
        key = f"elite.error.{code}"
        assert table.get(key), (lang, key)
        assert placeholders(table[key]) == placeholders(english[key]), (lang, key)
        if code in raised:  # the engine gives exactly the values the text asks for
            assert placeholders(english[key]) == raised[code], code


def test_russian_refusals_are_russian_with_the_games_names() -> None:
    game = EliteGame(
        EliteConfig(map="crash_site", mission="recon", difficulty="easy", players=2, heroes=("kara", "gerid")),
        seed=1,
        clock=ManualClock(),
    )
    game.begin_round()
    with pytest.raises(GameError) as wrong:
        game.declare_victory()
    assert wrong.value.code == "wrong_phase" and wrong.value.values == {"phase": "event"}
    assert error_text("ru", wrong.value) == "Не сейчас: идёт Фаза Событий."
    assert error_text("en", wrong.value) == "Not now: this is the Event Phase."
    game.spawn()
    with pytest.raises(GameError) as unknown:
        game.roll_alien("naga", {"kara": 1})
    assert error_text("ru", unknown.value).startswith("Нет данных для «Нага»")


def test_timer_states_are_named_in_the_language() -> None:
    timer = ActionTimer(ManualClock())
    with pytest.raises(TimerError) as err:
        timer.pause()
    assert error_text("ru", err.value) == "Таймер нельзя остановить: он готов."
    assert error_text("en", err.value) == "The timer cannot pause: it is ready."


def test_czech_and_slovak_get_their_own_words_and_english_names() -> None:
    err = GameError("no_hidden_token", cell=7)
    assert error_text("cs", err) == "Na poli 7 není žeton průzkumu lícem dolů."
    assert error_text("sk", err) == "Na políčku 7 nie je žetón prieskumu lícom nadol."
    phase = GameError("wrong_phase", phase="spawn")
    assert error_text("cs", phase) == "Teď ne: právě probíhá Líhnutí vetřelců."  # ELITE's own Czech names
    assert error_text("sk", phase) == "Teraz nie: práve prebieha Liahnutie votrelcov."


def test_a_pack_error_keeps_where_and_what_but_inert() -> None:
    with pytest.raises(PackError) as err:
        load_pack({"swarm": [{"type": "hound", "movement": 1}, {"type": "hound", "movement": 2}]})
    assert err.value.code == "pack_invalid"
    shown = error_text("ru", err.value)
    assert shown.startswith("Ошибка в pack: swarm:") and "hound" in shown
    forged = PackError("pack_invalid", where="@everyone", detail="<@123>")
    assert "@everyone" not in error_text("en", forged).replace("@\u200beveryone", "")


def test_an_error_is_readable_in_logs() -> None:
    assert str(EliteError("no_relic", cell=3)) == "no_relic (cell=3)"
    assert str(EliteError("game_over")) == "game_over"
