"""The pack loader: our default pack loads, the stored schema is current, and every malformed input
comes back as a coded refusal, never an exception."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.legion.pack import Content, PackRefusal, load_pack, pack_json_schema
from tests.legion.helpers import CONTENT

RAW: dict[str, Any] = json.loads(
    resources.files("engine.legion").joinpath("data/default_pack.json").read_text(encoding="utf-8")
)


def _refused(data: object) -> PackRefusal:
    result = load_pack(data if isinstance(data, str | bytes) else json.dumps(data))
    assert isinstance(result, PackRefusal), result
    return result


def test_default_pack_is_ours_and_complete() -> None:
    pack = CONTENT.pack
    assert pack.ours
    assert {m.kind for m in pack.missions} == {"delivery", "destruction", "reconnaissance", "exploration"}
    assert {f.type for f in pack.flights} == {"combat", "station", "planet", "anomaly"}
    assert {e.faction for e in pack.enemies} == {"pirates", "unknown", "legion"}
    levels = {(e.kind, e.level) for e in pack.equipment if e.kind != "special"}
    assert {(k, lv) for k in ("weapon", "engine", "armour") for lv in (1, 2, 3, 4)} <= levels
    assert any(e.kind == "special" for e in pack.equipment)


def test_stored_schema_matches_the_model() -> None:
    stored = json.loads(resources.files("engine.legion").joinpath("data/pack.schema.json").read_text(encoding="utf-8"))
    assert stored == json.loads(json.dumps(pack_json_schema()))


def test_refuses_text_that_is_not_json() -> None:
    assert _refused("{not json").code == "not_json"


def test_refuses_a_list() -> None:
    assert _refused([1, 2]).code == "schema"


def test_refuses_a_schema_error_and_says_where() -> None:
    bad = copy.deepcopy(RAW)
    bad["ships"][0]["hull"] = -3
    refusal = _refused(bad)
    assert (refusal.code, refusal.where) == ("schema", "ships.0.hull")


def test_refuses_a_dangling_enemy_reference() -> None:
    bad = copy.deepcopy(RAW)
    combat = next(i for i, f in enumerate(bad["flights"]) if f["type"] == "combat")
    bad["flights"][combat]["enemy"] = "ghost_ship"
    assert _refused(bad) == PackRefusal("reference", f"flights.{combat}.enemy", bad["flights"][combat]["id"])


def test_refuses_a_duplicate_id() -> None:
    bad = copy.deepcopy(RAW)
    bad["events"].append(dict(bad["events"][0]))
    assert _refused(bad).code == "duplicate_id"


def test_refuses_starting_modules_of_the_wrong_kind() -> None:
    bad = copy.deepcopy(RAW)
    bad["starting_modules"] = ["engine_i", "engine_i", "armour_i"]
    assert _refused(bad).code == "reference"


def test_refuses_a_station_without_services() -> None:
    bad = copy.deepcopy(RAW)
    station = next(i for i, f in enumerate(bad["flights"]) if f["type"] == "station")
    bad["flights"][station]["services"] = []
    assert _refused(bad).code == "incomplete"


def test_refuses_a_huge_upload() -> None:
    assert _refused("x" * 600_000).code == "too_large"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300) | st.binary(max_size=300))
def test_arbitrary_text_never_raises(raw: str | bytes) -> None:
    assert isinstance(load_pack(raw), PackRefusal | Content)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 50) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_arbitrary_json_never_raises(data: object) -> None:
    assert isinstance(load_pack(json.dumps(data)), PackRefusal)


@settings(max_examples=100, deadline=None)
@given(section=st.sampled_from(sorted(RAW)), value=JSON)
def test_replacing_any_section_with_junk_is_refused_or_valid(section: str, value: object) -> None:
    bad = copy.deepcopy(RAW)
    bad[section] = value
    assert isinstance(load_pack(json.dumps(bad)), PackRefusal | Content)
