"""Data packs: a full pack validates, and a broken one is refused naming its first problem."""

from __future__ import annotations

import json

import pytest

from engine.elite.datapack import MAX_PACK_BYTES, PackError, load_pack, pack_json_schema

FULL = {
    "version": 1,
    "name": "My copy",
    "swarm": [
        {"type": "tapeworm", "movement": 2, "ability": {"range": 1, "hit_value": 4}},
        {"type": "hound", "movement": 3},
        {"type": "shooter", "movement": 1, "ability": {"range": 3, "hit_value": 4}},
    ],
    "bosses": [{"id": "firewing", "health": 4, "movement": 2, "ability": {"range": 2, "fixed_damage": 1}}],
    "swarm_spawn": [{"type": "hound", "count": 3, "cluster": 1, "activation": True}, {"type": "shooter", "count": 5}],
    "events": [{"number": 1, "name": {"en": "Quick Attack", "ru": "Быстрая атака"}, "timer_change_s": -15}],
    "equipment": [{"id": "ion", "deck": "basic", "kind": "weapon", "range": 4, "hit_dice": 1, "hit_value": 4}],
    "heroes": [{"hero": "gerid", "length": 10, "thresholds": [3, 6, 8]}],
}


def test_a_full_pack_loads_from_text_and_from_a_dict() -> None:
    pack = load_pack(json.dumps(FULL))
    assert pack == load_pack(FULL)
    swarm = pack.swarm_stat("shooter")
    assert swarm is not None and swarm.ability.hit_value == 4
    firewing = pack.boss("firewing")
    assert firewing is not None and firewing.health == 4
    assert pack.boss("naga") is None
    event = pack.event(1)
    assert event is not None and event.name["ru"] == "Быстрая атака"
    gerid = pack.hero("gerid")
    assert gerid is not None and gerid.thresholds == (3, 6, 8)
    assert pack.swarm_spawn[1].cluster is None  # the [?] face


def test_an_empty_pack_is_valid() -> None:
    assert load_pack("{}").swarm == []


@pytest.mark.parametrize(
    ("patch", "first_error"),
    [
        ({"events": [{"number": 26}]}, "events[0].number: Input should be less than or equal to 25"),
        ({"swarm_spawn": [{"type": "hound", "count": 3}, {"type": "dragon", "count": 1}]}, "swarm_spawn[1].type:"),
        ({"swarm_spawn": [{"type": "hound", "count": 3, "cluster": 4}]}, "swarm_spawn[0].cluster:"),
        ({"bosses": [{"id": "naga", "movement": 1}]}, "bosses[0].health: Field required"),
        ({"heroes": [{"hero": "kara", "length": 5, "thresholds": [3, 2]}]}, "heroes[0]: thresholds must be distinct"),
        ({"heroes": [{"hero": "kara", "length": 5, "thresholds": [5]}]}, "heroes[0]: thresholds must lie between"),
        ({"swarm": [{"type": "hound", "movement": 1}, {"type": "hound", "movement": 2}]}, "'hound' appears twice"),
        (
            {"bosses": [{"id": "naga", "health": 2, "movement": 1, "ability": {"hit_value": 4, "fixed_damage": 1}}]},
            "bosses[0].ability: give either hit_value or fixed_damage",
        ),
        ({"cards": []}, "cards: Extra inputs are not permitted"),
        ({"version": 2}, "version:"),
        ({"events": [{"number": 3, "text": {"en": "x" * 601}}]}, "events[0].text.en: String should have at most 600"),
    ],
)
def test_the_first_error_is_named(patch: dict[str, object], first_error: str) -> None:
    with pytest.raises(PackError) as err:
        load_pack({**patch})
    assert err.value.code == "pack_invalid"
    named = f"{err.value.values['where']}: {err.value.values['detail']}"
    assert named.startswith(first_error) or first_error in named


def test_not_json_not_an_object_or_too_big() -> None:
    with pytest.raises(PackError, match="pack_not_json"):
        load_pack("{oops")
    with pytest.raises(PackError, match="pack_not_object"):
        load_pack("[1, 2]")
    with pytest.raises(PackError, match="pack_too_large"):
        load_pack(" " * (MAX_PACK_BYTES + 1))


def test_the_schema_describes_every_section() -> None:
    schema = pack_json_schema()
    assert set(schema["properties"]) >= {"swarm", "bosses", "swarm_spawn", "events", "equipment", "heroes"}
    assert "SwarmSpawnCard" in schema["$defs"]
