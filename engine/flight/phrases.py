"""The intercom phrase catalogue: every spoken line in English, Russian, Czech and Slovak, from one source.

Voice (text to speech) and text (the Discord log) both call `render`, so what is heard and what is
read can never drift apart.  Wording:
  * ru: the Russian rulebook's intercom section (§2.1), word for word where it gives the line;
  * cs: the Czech intercom quoted in the Slovak rulebook's §2.1 (its "vnútorné" for the internal
    threat is Slovak spilling into the quote; the Czech word "vnitřní" is used);
  * sk: the Slovak rulebook quotes the Czech CD; its own words for what the CD says (§2.1 and
    around it: "ohrozenie", "vnútorné ohrozenie", "nepotvrdené hlásenie", "prenos", "strata
    spojenia", "spojenie obnovené", "hyperpriestor", "fáza operácie") make the Slovak lines;
  * en: the wording of the English soundtrack CD.
Numbers are spelled out so a TTS engine reads "T plus three", never "T dash three".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LANGS: tuple[str, ...] = ("en", "ru", "cs", "sk")

KINDS: tuple[str, ...] = (
    "mission_start",
    "threat",
    "incoming_data",
    "data_transfer",
    "transfer_countdown",
    "transfer_complete",
    "comm_down",
    "comm_restored",
    "one_minute_warning",
    "twenty_seconds_warning",
    "countdown",
    "count",
    "phase_ended",
    "phase_begins",
    "operation_ended",
)


class PhraseError(KeyError):
    """Unknown kind or language, or a missing parameter."""


_NUM = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"],
    "ru": ["ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь"],
    "cs": ["nula", "jedna", "dva", "tři", "čtyři", "pět", "šest", "sedm", "osm"],
    "sk": ["nula", "jedna", "dva", "tri", "štyri", "päť", "šesť", "sedem", "osem"],
}
# ordinal of the phase as used in "<first> phase ends ..." (genitive in ru/cs) and "begin <second> phase"
_PHASE_GEN = {
    "en": ["", "First", "Second", "Third"],
    "ru": ["", "первой", "второй", "третьей"],
    "cs": ["", "první", "druhé", "třetí"],
    "sk": ["", "prvej", "druhej", "tretej"],
}
_PHASE_NOM = {
    "en": ["", "first", "second", "third"],
    "ru": ["", "Первая", "Вторая", "Третья"],
    "cs": ["", "První", "Druhá", "Třetí"],
    "sk": ["", "Prvá", "Druhá", "Tretia"],
}
_ZONE = {
    "en": {"red": "Zone red.", "white": "Zone white.", "blue": "Zone blue."},
    "ru": {"red": "Красный сектор.", "white": "Белый сектор.", "blue": "Синий сектор."},
    "cs": {"red": "v červené zóně", "white": "v bílé zóně", "blue": "v modré zóně"},
    "sk": {"red": "v červenej zóne", "white": "v bielej zóne", "blue": "v modrej zóne"},
}


def _threat_en(turn: int, zone: str | None, serious: bool, internal: bool, unconfirmed: bool) -> str:
    kind = (
        ("Serious internal threat." if serious else "Internal threat.")
        if internal
        else ("Serious threat." if serious else "Threat.")
    )
    parts = ["Unconfirmed report." if unconfirmed else "", f"Time T plus {_NUM['en'][turn]}.", kind]
    if zone:
        parts.append(_ZONE["en"][zone])
    return " ".join(p for p in parts if p)


def _threat_ru(turn: int, zone: str | None, serious: bool, internal: bool, unconfirmed: bool) -> str:
    kind = (
        ("Серьёзная внутренняя угроза." if serious else "Внутренняя угроза.")
        if internal
        else ("Серьёзная угроза." if serious else "Угроза.")
    )
    parts = ["Не подтверждено:" if unconfirmed else "", f"Время Т плюс {_NUM['ru'][turn]}.", kind]
    if zone:
        parts.append(_ZONE["ru"][zone])
    return " ".join(p for p in parts if p)


def _threat_cs(turn: int, zone: str | None, serious: bool, internal: bool, unconfirmed: bool) -> str:
    kind = (
        ("vážné vnitřní ohrožení" if serious else "vnitřní ohrožení")
        if internal
        else ("vážné ohrožení" if serious else "ohrožení")
    )
    body = f"Čas T plus {_NUM['cs'][turn]}, {kind}"
    if zone:
        body += f" {_ZONE['cs'][zone]}"
    body += "."
    return f"Nepotvrzená informace: {body}" if unconfirmed else body


def _threat_sk(turn: int, zone: str | None, serious: bool, internal: bool, unconfirmed: bool) -> str:
    kind = (
        ("vážne vnútorné ohrozenie" if serious else "vnútorné ohrozenie")
        if internal
        else ("vážne ohrozenie" if serious else "ohrozenie")
    )
    body = f"Čas T plus {_NUM['sk'][turn]}, {kind}"
    if zone:
        body += f" {_ZONE['sk'][zone]}"
    body += "."
    return f"Nepotvrdené hlásenie: {body}" if unconfirmed else body


_THREAT: dict[str, Callable[[int, str | None, bool, bool, bool], str]] = {
    "en": _threat_en,
    "ru": _threat_ru,
    "cs": _threat_cs,
    "sk": _threat_sk,
}
_REPEAT = {"en": "Repeat.", "ru": "Повторяю.", "cs": "Opakuj.", "sk": "Opakujem."}

_FIXED: dict[str, dict[str, str]] = {
    "mission_start": {
        "en": "Enemy activity detected. Please begin first phase.",
        "ru": "Обнаружена вражеская активность. Пожалуйста, начните первую фазу.",
        "cs": "Detekována nepřátelská aktivita, zahájena první fáze operace.",
        "sk": "Zistená nepriateľská aktivita, začína prvá fáza operácie.",
    },
    "incoming_data": {
        "en": "Incoming data. Repeat, incoming data.",
        "ru": "Входящие данные.",
        "cs": "Příchozí data, opakuj, příchozí data.",
        "sk": "Prichádzajúce dáta, opakujem, prichádzajúce dáta.",
    },
    "data_transfer": {
        "en": "Data transfer.",
        "ru": "Передача данных.",
        "cs": "Přenos dat, opakuj,",
        "sk": "Prenos dát, opakujem,",
    },
    "transfer_countdown": {
        "en": "Data transfer in",
        "ru": "Завершение передачи данных через",
        "cs": "přenos dat za",
        "sk": "prenos dát za",
    },
    "transfer_complete": {
        "en": "Data transfer complete.",
        "ru": "Передача данных завершена.",
        "cs": "Přenos dat ukončen.",
        "sk": "Prenos dát ukončený.",
    },
    "comm_down": {
        "en": "Communications system down.",
        "ru": "Система связи повреждена.",
        "cs": "Ztráta spojení.",
        "sk": "Strata spojenia.",
    },
    "comm_restored": {
        "en": "Communications restored.",
        "ru": "Связь восстановлена.",
        "cs": "Spojení obnoveno.",
        "sk": "Spojenie obnovené.",
    },
    "operation_ended": {
        "en": "Mission complete. Entering hyperspace.",
        "ru": "Задание завершено.",
        "cs": "Operace ukončena, vstupujeme do hyperprostoru.",
        "sk": "Operácia ukončená, vstupujeme do hyperpriestoru.",
    },
}


def _phase_subject(lang: str, phase: int, last: bool) -> str:
    """'First phase' / 'Operation' in the form the warning sentences need."""
    if lang == "en":
        return "Operation" if last else f"{_PHASE_GEN['en'][phase]} phase"
    if lang == "ru":
        return "операции" if last else f"{_PHASE_GEN['ru'][phase]} фазы"
    if lang == "sk":
        return "operácie" if last else f"{_PHASE_GEN['sk'][phase]} fázy"
    return "operace" if last else f"{_PHASE_GEN['cs'][phase]} fáze"


def _warning(lang: str, phase: int, last: bool, minute: bool) -> str:
    subject = _phase_subject(lang, phase, last)
    if lang == "en":
        return f"{subject} ends in {'one minute' if minute else 'twenty seconds'}."
    if lang == "ru":
        return f"Завершение {subject} через {'одну минуту' if minute else 'двадцать секунд'}."
    if lang == "sk":
        return f"Koniec {subject} za {'jednu minútu' if minute else 'dvadsať sekúnd'}."
    return f"Konec {subject} za {'jednu minutu' if minute else 'dvacet vteřin'}."


def _countdown(lang: str, phase: int, last: bool) -> str:
    subject = _phase_subject(lang, phase, last)
    if lang == "en":
        return f"{subject} ends in"
    if lang == "ru":
        return f"Завершение {subject} через"
    if lang == "sk":
        return f"Koniec {subject} za"
    return f"Konec {subject} za"


def _phase_ended(lang: str, phase: int) -> str:
    if lang == "en":
        return f"{_PHASE_GEN['en'][phase]} phase has ended."
    if lang == "ru":
        return f"{_PHASE_NOM['ru'][phase]} фаза завершена."
    if lang == "sk":
        return f"{_PHASE_NOM['sk'][phase]} fáza ukončená."
    return f"{_PHASE_NOM['cs'][phase]} fáze ukončena."


def _phase_begins(lang: str, phase: int) -> str:
    if lang == "en":
        return f"Begin {_PHASE_NOM['en'][phase]} phase."
    if lang == "ru":
        return f"{_PHASE_NOM['ru'][phase]} фаза."
    if lang == "sk":
        return f"Začína {_PHASE_NOM['sk'][phase].lower()} fáza."
    return f"Zahájena {_PHASE_NOM['cs'][phase].lower()} fáze."


def _need(params: dict[str, Any], *names: str) -> list[Any]:
    missing = [n for n in names if n not in params]
    if missing:
        raise PhraseError(f"missing parameter(s): {', '.join(missing)}")
    return [params[n] for n in names]


def render(kind: str, lang: str, **params: Any) -> str:
    """The spoken text of one announcement.

    Parameters by kind:
      threat: turn (1-8), zone (red/white/blue or None), serious, internal, unconfirmed, repeat
              (default True: the message, "repeat", the message again, as on the CD);
      one_minute_warning / twenty_seconds_warning / countdown: phase (1-3), last (bool: the
              operation's final phase says "operation" instead of "n-th phase");
      count: n (1-5), one number of a countdown;
      phase_ended: phase (the one that ended); phase_begins: phase (the one that begins).
    """
    if lang not in LANGS:
        raise PhraseError(f"unknown language {lang!r}: use one of {', '.join(LANGS)}")
    if kind in _FIXED:
        return _FIXED[kind][lang]
    if kind == "threat":
        turn, zone = _need(params, "turn", "zone")
        if not isinstance(turn, int) or not 1 <= turn <= 8:
            raise PhraseError(f"turn must be 1-8, got {turn!r}")
        one = _THREAT[lang](
            turn,
            zone,
            bool(params.get("serious", False)),
            bool(params.get("internal", False)),
            bool(params.get("unconfirmed", False)),
        )
        if params.get("repeat", True):
            return f"{one} {_REPEAT[lang]} {one}"
        return one
    if kind in ("one_minute_warning", "twenty_seconds_warning"):
        (phase,) = _need(params, "phase")
        return _warning(lang, phase, bool(params.get("last", False)), kind == "one_minute_warning")
    if kind == "countdown":
        (phase,) = _need(params, "phase")
        return _countdown(lang, phase, bool(params.get("last", False)))
    if kind == "count":
        (n,) = _need(params, "n")
        if not isinstance(n, int) or not 1 <= n <= 5:
            raise PhraseError(f"count n must be 1-5, got {n!r}")
        return _NUM[lang][n] + ("." if n == 1 else ",")
    if kind == "phase_ended":
        (phase,) = _need(params, "phase")
        return _phase_ended(lang, phase)
    if kind == "phase_begins":
        (phase,) = _need(params, "phase")
        return _phase_begins(lang, phase)
    raise PhraseError(f"unknown announcement kind {kind!r}")
