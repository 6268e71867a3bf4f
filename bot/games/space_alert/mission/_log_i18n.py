"""The captain's log in the flight's language: the engine's events rendered from the one catalogue.

The engine emits every resolution event as a kind plus parameters (card ids, zones, stations,
numbers and the codes of engine/vocab.py) and holds no words.  Every language's sentences live in
the `captains_log` area of the catalogue (bot/platform/locales/captains_log/<lang>.json):

- `captains_log.event.<kind>`: the sentence, with the event's parameters as placeholders;
- `captains_log.event.<kind>.<part>`: an optional part of it (`{heroic}`, `{bonus}`, ...), put in
  only when the event carries what it speaks of;
- `captains_log.<family>.<code>`: the words for a code (zones, weapons, reasons, ...);
- `captains_log.phrase.*`: how a station, an energy store, a weapon in a zone are named.

What is computed here is the same for every language (which part applies, which family a code is
looked up in); what is said is the catalogue's.  Threat cards are named in the flight's language
from bot/platform/locales/threats.json (bot/games/space_alert/threat_names.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.space_alert.threat_names import threat_name, threat_text
from bot.platform.i18n import FALLBACK, catalogue
from engine.vocab import ZONES

PREFIX = "captains_log."

#: the code family each event parameter's words come from (`captains_log.<family>.<code>`)
CODE_FAMILY: Mapping[str, Mapping[str, str]] = {
    "how": {"move": "move_how", "": "hit_how"},
    "reason": {"no_effect": "no_effect", "": "threat_no_effect"},
    "what": {"": "bots"},
    "token": {"": "token"},
}
#: optional parts: placeholder -> the event parameter whose presence puts the part in
PARTS: Mapping[str, str] = {"heroic": "heroic", "bonus": "heroic_bonus", "lost_card_part": "lost_card", "by_part": "by"}
#: kinds whose `frm` and `to` are stations (elsewhere they are spaces on a track)
STATION_MOVES = frozenset({"move", "threat_moves", "slime_spreads", "slime_blocked"})
#: the result's `lost.cause` is a card id or one of these fixed strings (the public result format)
ZONE_CAUSES: Mapping[str, str] = {f"zone {zone} destroyed": zone for zone in ZONES}


class _Params(dict[str, Any]):
    """Placeholders: the words computed here, then whatever else the event carries (an event may be
    a mapping that answers more than its keys, as a test's stand-in does)."""

    def __init__(self, event: Mapping[str, Any], words: Mapping[str, Any]) -> None:
        super().__init__(words)
        self.event = event

    def __missing__(self, key: str) -> Any:
        return self.event[key]


class _Words:
    """One language's catalogue entries of the captain's log, and the phrases built from them."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.table = catalogue(lang)
        self.english = catalogue(FALLBACK)

    def raw(self, key: str) -> str:
        """The template for `key` (English when the language lacks it); a KeyError if none has it."""
        full = PREFIX + key
        found = self.table.get(full) or self.english.get(full)
        if found is None:
            raise KeyError(full)
        return found

    def say(self, key: str, params: Mapping[str, Any] | None = None, /, **more: Any) -> str:
        return self.raw(key).format_map(_Params(params or {}, more))

    def code(self, family: str, code: Any) -> str:
        """The words for a code; an unknown code is shown as it is (a test keeps every family complete)."""
        full = f"{PREFIX}{family}.{code}"
        return self.table.get(full) or self.english.get(full) or str(code)

    def threat(self, card_id: Any) -> str:
        """A threat card by its name in the language and its id: 'Destroyer (E1-02)'."""
        tid = str(card_id or "")
        return f"{threat_name(self.lang, tid)} ({tid})"

    def station(self, station: Any) -> str:
        if station == "space":
            return self.raw("phrase.space")
        if not isinstance(station, str) or "_" not in station:
            return str(station or "?")
        deck, zone = station.split("_", 1)
        return self.say("phrase.station", deck=self.code("deck", deck), zone=self.code("zone_adj", zone))

    def store(self, system: Any, zone: Any) -> str:
        return self.say("phrase.store", system=self.code("system", system), zone=self.code("zone_short", zone))

    def weapon(self, event: Mapping[str, Any], weapon: Any) -> str:
        """A weapon; lasers name the threat's zone, an explosion names the card that exploded."""
        if weapon == "explosion" and event.get("source"):
            return self.say("phrase.explosion_of", source=self.threat(event["source"]))
        if weapon in ("heavy", "light") and event.get("zone"):
            return self.say(
                "phrase.weapon_in_zone", weapon=self.code("weapon", weapon), zone=self.code("zone_short", event["zone"])
            )
        return self.code("weapon", weapon)

    def cause(self, cause: Any) -> str:
        """A delay's cause or what knocked a crew member out: one of the codes, or a card."""
        if f"{PREFIX}delay_cause.{cause}" in self.english:
            return self.code("delay_cause", cause)
        return self.threat(cause)

    def lost(self, threat: Any, zone: Any) -> str:
        """Why the ship was lost: the card, or the zone that took a seventh damage token."""
        return self.threat(threat) if threat else self.say("phrase.zone_lost", zone=self.code("zone", zone))


def _params(words: _Words, event: Mapping[str, Any]) -> _Params:
    """The event's parameters, with every code, card and station put in words."""
    kind = str(event["kind"])
    params = _Params(event, {})
    get = event.get
    params["threat"] = words.threat(get("threat"))
    params["source"] = words.threat(get("source"))
    params["cause"] = words.cause(get("cause"))
    params["station"] = words.station(get("station"))
    if kind in STATION_MOVES:
        params["frm"], params["to"] = words.station(get("frm")), words.station(get("to"))
    params["zone"] = words.code("zone", get("zone"))
    params["zone_acc"] = words.code("zone_acc", get("zone"))
    for name, families in CODE_FAMILY.items():
        if name in event:
            params[name] = words.code(families.get(kind, families[""]), event[name])
    if "src" in event:
        params["src"] = words.store(event["src"], get("src_zone"))
        params["dst"] = words.store(get("dst"), get("dst_zone"))
    if "system" in event:
        params["store"] = words.store(event["system"], get("zone"))
    if "weapon" in event:
        params["weapon"] = words.weapon(event, event["weapon"])
    if "weapons" in event:
        params["weapons"] = ", ".join(words.weapon(event, weapon) for weapon in event["weapons"])
    if "zones" in event:
        params["zones"] = ", ".join(words.code("zone_short", zone) for zone in event["zones"])
    if kind == "threat_action":
        params["card_text"] = threat_text(words.lang, str(get("threat")), str(get("letter")))
    if kind == "threat_hit":
        params["by"] = get("by") or words.raw("phrase.ship")
    if kind == "mission_lost":
        params["lost"] = words.lost(get("threat"), get("zone"))
    return params


def _render(words: _Words, event: Mapping[str, Any]) -> str:
    kind = str(event["kind"])
    template = words.raw(f"event.{kind}")
    params = _params(words, event)
    for part, field in PARTS.items():
        if f"{{{part}}}" in template:
            params[part] = words.say(f"event.{kind}.{part}", params) if event.get(field) else ""
    if "{where}" in template:
        params["where"] = words.say(f"event.{kind}.where.{'zone' if event.get('zone') else 'station'}", params)
    if "{tail}" in template:
        params["tail"] = words.say(f"event.{kind}.tail.{'exploded' if event.get('source') else 'how'}", params)
    line = template.format_map(params)
    # a line that begins with a zone's name begins with a capital letter ("Red zone takes ...")
    return line[:1].upper() + line[1:] if template.startswith("{zone}") else line


def describe(lang: str, entry: dict[str, Any]) -> str:
    """One log line in `lang` (an unknown language is rendered in English).

    Every event the engine emits today renders (tests/bot/test_captains_log_words.py enumerates them); a
    stored log written by an older engine may carry another shape, and then its own stored `text`
    is shown rather than nothing."""
    try:
        return _render(_Words(lang), entry)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return str(entry.get("text", ""))


def cause_text(lang: str, cause: Any) -> str:
    """Why the ship was lost (the result's `lost.cause`: a card id or "zone <colour> destroyed")."""
    text = str(cause or "?")
    zone = ZONE_CAUSES.get(text)
    return _Words(lang).lost(None if zone else text, zone)
