"""The intercom's words (the catalogue's `intercom` area) and the spoken script derived from a timeline."""

from __future__ import annotations

import pytest

from bot.games.space_alert.intercom import PhraseError, render, say, worded
from engine.flight.script import KINDS, Cue, intercom_script, script_text
from engine.flight.timeline import TRANSFER_BEEP_AFTER_S, load_official, official_ids, parse_timeline
from engine.vocab import LANGUAGES as LANGS

_PARAMS = {
    "threat": {"turn": 3, "zone": "red", "serious": True, "internal": False, "unconfirmed": False},
    "one_minute_warning": {"phase": 1},
    "twenty_seconds_warning": {"phase": 2, "last": True},
    "countdown": {"phase": 2},
    "count": {"n": 3},
    "phase_ended": {"phase": 1},
    "phase_begins": {"phase": 2},
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_renders_in_every_language(kind: str, lang: str) -> None:
    text = render(kind, lang, **_PARAMS.get(kind, {}))
    assert text.strip() and "{" not in text


@pytest.mark.parametrize(
    ("lang", "params", "expected"),
    [
        ("en", {"turn": 3, "zone": "red", "serious": True}, "Time T plus three. Serious threat. Zone red."),
        (
            "en",
            {"turn": 5, "zone": None, "internal": True, "unconfirmed": True},
            "Unconfirmed report. Time T plus five. Internal threat.",
        ),
        ("ru", {"turn": 2, "zone": "blue"}, "Время Т плюс два. Угроза. Синий сектор."),
        ("ru", {"turn": 4, "zone": None, "internal": True, "serious": True}, "Серьёзная внутренняя угроза."),
        ("ru", {"turn": 4, "zone": "white", "unconfirmed": True}, "Не подтверждено: Время Т плюс четыре."),
        ("cs", {"turn": 1, "zone": "white"}, "Čas T plus jedna, ohrožení v bílé zóně."),
        ("cs", {"turn": 6, "zone": None, "internal": True, "serious": True}, "vážné vnitřní ohrožení"),
        ("cs", {"turn": 7, "zone": "red", "unconfirmed": True}, "Nepotvrzená informace: Čas T plus sedm"),
    ],
)
def test_threat_wording(lang: str, params: dict, expected: str) -> None:
    once = render("threat", lang, repeat=False, **params)
    assert expected in once
    twice = render("threat", lang, **params)
    assert twice.count(once) == 2  # message, "repeat", message again (unconfirmed prefix on both)


def test_rulebook_wording_of_the_phase_lines() -> None:
    assert render("mission_start", "ru") == "Обнаружена вражеская активность. Пожалуйста, начните первую фазу."
    assert render("one_minute_warning", "ru", phase=1) == "Завершение первой фазы через одну минуту."
    assert render("twenty_seconds_warning", "cs", phase=2) == "Konec druhé fáze za dvacet vteřin."
    assert render("one_minute_warning", "cs", phase=3, last=True) == "Konec operace za jednu minutu."
    assert render("operation_ended", "cs") == "Operace ukončena, vstupujeme do hyperprostoru."
    assert render("phase_begins", "cs", phase=3) == "Zahájena třetí fáze."
    assert render("phase_begins", "en", phase=2) == "Begin second phase."
    assert render("phase_ended", "ru", phase=2) == "Вторая фаза завершена."
    assert render("comm_down", "cs") == "Ztráta spojení." and render("comm_restored", "ru") == "Связь восстановлена."
    assert render("count", "cs", n=1) == "jedna." and render("count", "ru", n=5) == "пять,"


def test_phrase_errors() -> None:
    with pytest.raises(PhraseError):
        render("threat", "de", turn=1, zone="red")
    with pytest.raises(PhraseError):
        render("lullaby", "en")
    with pytest.raises(PhraseError):
        render("threat", "en", zone="red")
    with pytest.raises(PhraseError):
        render("count", "en", n=6)


def _at(cues: list[Cue], kind: str, **params: object) -> list[float]:
    return [c.at_s for c in cues if c.kind == kind and all(c.params.get(k) == v for k, v in params.items())]


@pytest.mark.parametrize("mission_id", official_ids())
def test_derived_announcements_follow_phase_ends(mission_id: str) -> None:
    tl = load_official(mission_id)
    cues = worded(intercom_script(tl, "en"))
    assert cues == sorted(cues, key=lambda c: c.at_s)
    assert cues[0].kind == "mission_start" and cues[0].at_s == 0 and cues[0].effect == "alert"
    for phase, end in enumerate(tl.phase_end_s, start=1):
        last = phase == tl.phases
        assert _at(cues, "one_minute_warning", phase=phase) == [end - 60]
        assert _at(cues, "twenty_seconds_warning", phase=phase) == [end - 20]
        assert _at(cues, "countdown", phase=phase) == [end - 7]
        # "five" ... "one": one second apart, "one" exactly on the phase end
        assert [_at(cues, "count", phase=phase, n=n) for n in (5, 4, 3, 2, 1)] == [
            [end - 4],
            [end - 3],
            [end - 2],
            [end - 1],
            [end],
        ]
        if last:
            assert _at(cues, "operation_ended") == [end + 1]
            assert cues[-1].kind == "operation_ended"
        else:
            assert _at(cues, "phase_ended", phase=phase) == [end + 1]
            assert _at(cues, "phase_begins", phase=phase + 1) == [end + 3]
    text = render("one_minute_warning", "en", phase=tl.phases, last=True)
    assert text == "Operation ends in one minute." and any(c.text == text for c in cues)


@pytest.mark.parametrize("mission_id", official_ids())
def test_event_lines_and_effects(mission_id: str) -> None:
    tl = load_official(mission_id)
    cues = intercom_script(tl, "cs")
    for i, ev in enumerate(tl.events):
        mine = [c for c in cues if c.event_index == i]
        if ev.event == "threat":
            assert [(c.at_s, c.kind, c.effect) for c in mine] == [(ev.t, "threat", "alert")]
        elif ev.event == "incoming_data":
            assert [(c.at_s, c.kind) for c in mine] == [(ev.t, "incoming_data")]
        elif ev.event == "data_transfer":
            beep = ev.t + TRANSFER_BEEP_AFTER_S
            assert mine[0].at_s == ev.t and mine[-1].kind == "transfer_complete"
            assert mine[-1].at_s == beep and mine[-1].effect == "beep"
            assert [c.at_s for c in mine if c.kind == "count"] == [beep - 5, beep - 4, beep - 3, beep - 2, beep - 1]
        else:
            assert [(c.at_s, c.kind, c.effect) for c in mine] == [
                (ev.t, "comm_down", "static_start"),
                (ev.t + ev.duration_s, "comm_restored", "static_end"),
            ]
            assert mine[0].duration_s == ev.duration_s
            # silence while communications are down, apart from the failure's own lines
            assert not [c for c in cues if ev.t < c.at_s < ev.t + ev.duration_s]


def test_silenced_line_inside_a_failure_is_dropped() -> None:
    # a derived line can only fall inside a failure in a timeline built without validation
    tl = load_official("S2-1")
    broken = tl.model_copy(update={"events": [*tl.events[:4], tl.events[4].model_copy(update={"t": 160})]})
    cues = intercom_script(broken, "en")
    assert not [c for c in cues if c.kind == "one_minute_warning" and c.params["phase"] == 1]
    assert [c for c in intercom_script(tl, "en") if c.kind == "one_minute_warning" and c.params["phase"] == 1]


def test_two_phase_test_run_script() -> None:
    tl = load_official("S1-1")
    cues = worded(intercom_script(tl, "ru"))
    assert _at(cues, "phase_begins", phase=2) == [tl.phase_end_s[0] + 3]
    assert not _at(cues, "phase_begins", phase=3)
    assert cues[-1].text == "Задание завершено." and cues[-1].at_s == 421
    assert "Завершение операции через двадцать секунд." in [c.text for c in cues]


def test_script_text_and_cue_round_trip() -> None:
    tl = parse_timeline(
        {"id": "x", "phases": 2, "phase_end_s": [220, 420], "events": [{"t": 100, "event": "data_transfer"}]}
    )
    cues = intercom_script(tl, "en")
    text = script_text(cues, say)
    assert script_text(worded(cues)) == text  # words filled in, or rendered as the text is made
    assert "1:41.4  Data transfer in five, four, three, two, one." in text
    assert "1:48  [beep] Data transfer complete." in text
    assert "6:53  Operation ends in five, four, three, two, one." in text
    assert all(Cue.from_dict(c.to_dict()) == c for c in cues)


def test_the_engine_script_holds_codes_not_words() -> None:
    cues = intercom_script(load_official("S1-1"), "sk")
    assert all(cue.text == "" for cue in cues)  # the bot fills the words in (worded)
    text = script_text(cues)
    assert text.startswith("0:00  [alert] mission_start\n0:15  [alert] threat turn=1 zone=blue ")
    assert not any(ord(ch) > 127 for ch in text)
    assert worded(cues)[0].text == "Zistená nepriateľská aktivita, začína prvá fáza operácie."
