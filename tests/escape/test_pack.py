"""The pack loader: the default pack loads; every malformed input is a coded refusal, never a
traceback (hypothesis over arbitrary text, arbitrary JSON and damaged copies of the default pack);
the published JSON Schema and the loader agree on the vocabularies."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.escape.content import GEAR_TYPES, GOALS, KINDS, generate_layout
from engine.escape.pack import Pack, PackRefusal, default_pack, load_pack

RAW = json.loads(resources.files("engine.escape").joinpath("data", "default_pack.json").read_text(encoding="utf-8"))
SCHEMA = json.loads(resources.files("engine.escape").joinpath("data", "pack.schema.json").read_text(encoding="utf-8"))


def test_the_default_pack_is_ours_and_loads() -> None:
    pack = default_pack()
    assert RAW["origin"].startswith("ours")
    assert {c.kind for c in pack.characters} == {"human", "mutant", "cyborg"}
    assert len(pack.missions) == 4
    targets = {g for m in pack.missions for g in m.goals}
    assert {"take_cargo", "take_disk", "shutdown_reactor", "hold_center", "escape"} <= targets


def test_layout_generator_is_seeded_and_fills_the_station() -> None:
    pack = default_pack()
    a = generate_layout(7, pack.layout_outer, pack.layout_inner)
    assert a == generate_layout(7, pack.layout_outer, pack.layout_inner)
    assert a != generate_layout(8, pack.layout_outer, pack.layout_inner)
    assert a[2][2] == "control_center" and [a[0][0], a[0][4], a[4][0], a[4][4]] == ["start"] * 4
    assert sum(row.count("lift") for row in a) == pack.layout_outer["lift"] + pack.layout_inner.get("lift", 0)
    assert all(a[r][c] != "lift" for r, c in ((0, 0), (0, 4), (4, 0), (4, 4)))


def test_schema_and_loader_share_the_vocabularies() -> None:
    defs = SCHEMA["$defs"]
    assert defs["gear"]["properties"]["type"]["enum"] == list(GEAR_TYPES)
    assert SCHEMA["properties"]["characters"]["items"]["properties"]["kind"]["enum"] == list(KINDS)
    assert SCHEMA["properties"]["missions"]["items"]["properties"]["goals"]["items"]["enum"] == list(GOALS)
    assert set(SCHEMA["required"]) <= set(RAW)


def _damaged(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(RAW)
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        (["format"], 2, "unknown_format"),
        (["characters"], [], "bad_list"),
        (["characters", 0, "kind"], "robot", "bad_text"),
        (["characters", 0, "ap"], True, "bad_number"),
        (["characters", 1, "id"], "pilot", "duplicate_id"),
        (["gear_outer", 0, "damage"], 99, "bad_number"),
        (["gear_outer", 0, "type"], "laser", "bad_text"),
        (["story", 0, "id"], "gold", "story_items"),
        (["local_outer", 0, "enemy"], KeyError, "not_an_object"),
        (["local_outer", 0, "part_upto"], -5, "bad_bands"),
        (["missions", 0, "goals"], ["fly"], "bad_goal"),
        (["guards", "lab"], KeyError, "not_an_object"),
        (["layout", "outer", "corridor"], 9, "layout_does_not_fill"),
        (["layout", "inner", "throne"], 1, "bad_tile_kind"),
        (["layout", "outer", "start"], 1, "bad_tile_kind"),
        (["general", 0, "amount"], 1.5, "bad_number"),
    ],
)
def test_malformed_packs_are_refused_with_a_code(path: list[Any], value: Any, code: str) -> None:
    result = load_pack(_damaged(path, value))
    assert isinstance(result, PackRefusal) and result.code == code, result


def test_text_refusals() -> None:
    assert load_pack("{nope") == PackRefusal("not_json")
    assert load_pack("[]") == PackRefusal("not_an_object", "pack")
    assert load_pack("x" * 1_000_001) == PackRefusal("too_large")
    assert load_pack("[" * 100_000 + "]" * 100_000) == PackRefusal("not_json")
    assert isinstance(load_pack(json.dumps(RAW)), Pack)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_a_pack_or_a_refusal(text: str) -> None:
    assert isinstance(load_pack(text), (Pack, PackRefusal))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_any_json_is_a_pack_or_a_refusal(value: Any) -> None:
    assert isinstance(load_pack(value), (Pack, PackRefusal))
    assert isinstance(load_pack(json.dumps(value)), (Pack, PackRefusal))


def _paths(node: Any, prefix: list[Any]) -> list[list[Any]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, child in node.items():
            out += _paths(child, [*prefix, key])
    elif isinstance(node, list):
        for i, child in enumerate(node[:3]):
            out += _paths(child, [*prefix, i])
    return out


PATHS = _paths(RAW, [])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), JSON | st.just(KeyError))
def test_a_damaged_default_pack_is_a_pack_or_a_refusal(path: list[Any], value: Any) -> None:
    assert isinstance(load_pack(_damaged(path, value)), (Pack, PackRefusal))
