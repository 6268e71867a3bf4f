"""Loading a content pack: JSON text (or a parsed object) to a `Pack`, or a coded refusal.

Why by hand and total: admins may load their own packs, so every malformed input (bad JSON, a
wrong type, a missing field, a card id referenced but never defined, a layout that does not fill
the station) must come back as `PackRefusal(code, where)` for the adapter to word, never as a
traceback.  The checks mirror `data/pack.schema.json` (the published contract) plus what a schema
cannot say: references, unique ids and layout counts.  No third-party validator: the engine has
no dependencies.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

from engine.escape.content import (
    GEAR_TYPES,
    GOALS,
    KINDS,
    TILE_KINDS,
    Character,
    Enemy,
    GearCard,
    GeneralEvent,
    LocalEvent,
    Mission,
    Pack,
)

MAX_TEXT = 1_000_000
LOCAL_KINDS = ("encounter", "body", "hazard", "nothing", "repair_drone")
GENERAL_KINDS = ("damage", "heal", "ap", "calm", "gear", "nothing")
OUTER_FREE = 12  # outer cells besides the four start corners (rules doc D3)
INNER_FREE = 8


@dataclass(frozen=True, slots=True)
class PackRefusal:
    """Why a pack was refused: a code (`escape.pack.<code>` in the locales) and where."""

    code: str
    where: str = ""


class _Bad(Exception):
    def __init__(self, code: str, where: str) -> None:
        super().__init__(code, where)
        self.code = code
        self.where = where


def _obj(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad("not_an_object", where)
    return value


def _list(value: Any, where: str, *, min_items: int = 1) -> list[Any]:
    if not isinstance(value, list) or len(value) < min_items or len(value) > 500:
        raise _Bad("bad_list", where)
    return value


def _int(data: dict[str, Any], key: str, where: str, lo: int, hi: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _Bad("bad_number", f"{where}.{key}")
    return value


def _bool(data: dict[str, Any], key: str, where: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise _Bad("bad_flag", f"{where}.{key}")
    return value


def _str(data: dict[str, Any], key: str, where: str, choices: tuple[str, ...] | None = None) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not 1 <= len(value) <= 64 or (choices is not None and value not in choices):
        raise _Bad("bad_text", f"{where}.{key}")
    return value


def _unique(ids: list[str], where: str) -> None:
    if len(set(ids)) != len(ids):
        raise _Bad("duplicate_id", where)


def _gear(raw: Any, where: str) -> GearCard:
    d = _obj(raw, where)
    return GearCard(
        _str(d, "id", where),
        _str(d, "type", where, GEAR_TYPES),  # type: ignore[arg-type]
        _int(d, "weight", where, 0, 20, 0),
        _int(d, "damage", where, 0, 20, 0),
        _int(d, "hands", where, 1, 2, 1),
        _int(d, "charges", where, 0, 20, 0),
        _bool(d, "double_shot", where),
        _bool(d, "auto_aim", where),
        _int(d, "armour", where, 0, 20, 0),
        _int(d, "heal", where, 0, 20, 0),
        _bool(d, "story", where),
    )


def _enemy(raw: Any, where: str) -> Enemy:
    d = _obj(raw, where)
    return Enemy(_int(d, "health", where, 1, 50), _int(d, "damage", where, 0, 20))


def _local(raw: Any, where: str) -> LocalEvent:
    d = _obj(raw, where)
    kind = _str(d, "kind", where, LOCAL_KINDS)
    enemy = _enemy(d.get("enemy"), f"{where}.enemy") if kind == "encounter" else None
    fight_upto = _int(d, "fight_upto", where, -10, 6, 0)
    part_upto = _int(d, "part_upto", where, -10, 6, 0)
    if part_upto < fight_upto:
        raise _Bad("bad_bands", where)
    return LocalEvent(
        _str(d, "id", where),
        kind,  # type: ignore[arg-type]
        enemy,
        fight_upto,
        part_upto,
        _int(d, "damage", where, 0, 20, 0),
        _int(d, "safe_from", where, 0, 7, 0),
        _bool(d, "gear", where),
    )


def _layout(raw: Any, where: str, total: int) -> dict[str, int]:
    d = _obj(raw, where)
    counts: dict[str, int] = {}
    for kind in d:
        if kind not in TILE_KINDS or kind in ("start", "control_center"):
            raise _Bad("bad_tile_kind", f"{where}.{kind}")
        counts[kind] = _int(d, kind, where, 0, total)
    if sum(counts.values()) != total:
        raise _Bad("layout_does_not_fill", where)
    return counts


def _build(data: Any) -> Pack:
    top = _obj(data, "pack")
    if top.get("format") != 1:
        raise _Bad("unknown_format", "format")
    pack_id = _str(top, "id", "pack")
    chars = []
    for i, raw in enumerate(_list(top.get("characters"), "characters", min_items=4)):
        w = f"characters[{i}]"
        d = _obj(raw, w)
        chars.append(
            Character(
                _str(d, "id", w),
                _str(d, "kind", w, KINDS),  # type: ignore[arg-type]
                _int(d, "ap", w, 1, 20),
                _int(d, "unarmed", w, 0, 20),
                _int(d, "max_weight", w, 0, 50),
                _int(d, "health", w, 1, 30),
            )
        )
    decks = {
        name: [_gear(r, f"{name}[{i}]") for i, r in enumerate(_list(top.get(name), name))]
        for name in ("gear_outer", "gear_inner", "story")
    }
    story_ids = sorted(card.id for card in decks["story"])
    if story_ids != ["cargo", "disk"] or not all(card.story for card in decks["story"]):
        raise _Bad("story_items", "story")
    if any(card.story for card in (*decks["gear_outer"], *decks["gear_inner"])):
        raise _Bad("story_items", "gear")
    if (
        sum(card.type == "weapon" for card in decks["gear_outer"]) < 5
        or sum(card.type != "weapon" for card in decks["gear_outer"]) < 5
    ):
        raise _Bad("draft_too_small", "gear_outer")
    locals_ = {
        name: [_local(r, f"{name}[{i}]") for i, r in enumerate(_list(top.get(name), name))]
        for name in ("local_outer", "local_inner")
    }
    general = []
    for i, raw in enumerate(_list(top.get("general"), "general")):
        w = f"general[{i}]"
        d = _obj(raw, w)
        kind = cast(Any, _str(d, "kind", w, GENERAL_KINDS))
        general.append(GeneralEvent(_str(d, "id", w), kind, _int(d, "amount", w, -10, 10, 0)))
    missions = []
    for i, raw in enumerate(_list(top.get("missions"), "missions", min_items=4)):
        w = f"missions[{i}]"
        d = _obj(raw, w)
        goals = _list(d.get("goals"), f"{w}.goals")
        if any(g not in GOALS for g in goals) or len(set(goals)) != len(goals):
            raise _Bad("bad_goal", f"{w}.goals")
        missions.append(Mission(_str(d, "id", w), tuple(goals)))
    guards_raw = _obj(top.get("guards"), "guards")
    guards = {site: _enemy(guards_raw.get(site), f"guards.{site}") for site in ("warehouse", "lab", "control_center")}
    layout = _obj(top.get("layout"), "layout")
    outer = _layout(layout.get("outer"), "layout.outer", OUTER_FREE)
    inner = _layout(layout.get("inner"), "layout.inner", INNER_FREE)
    placed = {k for k, n in (*outer.items(), *inner.items()) if n}
    needed = {"warehouse", "lab", "reactor", "docks", "lift"}
    if not needed <= placed:
        raise _Bad("missing_site", "layout")
    if outer.get("lift", 0) < 1:
        raise _Bad("missing_site", "layout.outer.lift")
    _unique([c.id for c in chars], "characters")
    _unique([c.id for c in (*decks["gear_outer"], *decks["gear_inner"], *decks["story"])], "gear")
    _unique([c.id for c in (*locals_["local_outer"], *locals_["local_inner"])], "local")
    _unique([c.id for c in general], "general")
    _unique([m.id for m in missions], "missions")
    return Pack(
        pack_id,
        tuple(chars),
        tuple(decks["gear_outer"]),
        tuple(decks["gear_inner"]),
        tuple(decks["story"]),
        tuple(locals_["local_outer"]),
        tuple(locals_["local_inner"]),
        tuple(general),
        tuple(missions),
        guards,
        outer,
        inner,
        top,
    )


def load_pack(source: str | bytes | Any) -> Pack | PackRefusal:
    """A `Pack` from JSON text or a parsed object; a `PackRefusal` on anything malformed."""
    data: Any = source
    if isinstance(source, (str, bytes)):
        if len(source) > MAX_TEXT:
            return PackRefusal("too_large")
        try:
            data = json.loads(source, parse_constant=lambda name: math.nan)
        except (ValueError, RecursionError):
            return PackRefusal("not_json")
    try:
        return _build(data)
    except _Bad as bad:
        return PackRefusal(bad.code, bad.where)
    except RecursionError:
        return PackRefusal("not_json")


def default_pack() -> Pack:
    """Our own default pack (engine/escape/data/default_pack.json)."""
    text = resources.files("engine.escape").joinpath("data", "default_pack.json").read_text(encoding="utf-8")
    pack = load_pack(text)
    if isinstance(pack, PackRefusal):
        raise RuntimeError(f"the default pack is broken: {pack}")  # our own file: a build error
    return pack
