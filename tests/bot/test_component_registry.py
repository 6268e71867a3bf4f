"""The platform's component-id registry (bot/platform/components.py): one prefix per kind, every
kind routed by a DynamicItem the running bot has registered, ids checked at build time, and a
message that would repeat an id refused before Discord sees it."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from typing import Any

import discord
import pytest

import bot.games
from bot.platform import components
from bot.platform.components import ComponentIdError, Components, DuplicateComponentId, Registry


def _import_every_game() -> None:
    """Every module under bot/games, so every kind a game registers is in the registry."""
    for info in pkgutil.walk_packages(bot.games.__path__, "bot.games."):
        importlib.import_module(info.name)


def _button(custom_id: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(custom_id=custom_id, label="x")


def test_the_platform_imports_no_game() -> None:
    source = Path(components.__file__).read_text(encoding="utf-8")
    assert "import bot.games" not in source and "from bot.games" not in source and "engine" not in source


def test_every_game_registers_its_kinds_once() -> None:
    _import_every_game()
    assert {"sa", "sr", "sa-camp", "sa-board", "elite"} <= set(components.REGISTRY.kinds)
    with pytest.raises(ComponentIdError, match="twice"):
        components.register("sa", {"x": "y"}, summary="again", example=("y",))


async def test_every_registered_prefix_is_routed_by_a_handler_the_bot_has_added(bot: Any) -> None:
    _import_every_game()
    added = {type_ for type_ in bot._connection._view_store._dynamic_items.values()}
    for prefix, kind in components.REGISTRY.kinds.items():
        handlers = components.REGISTRY.handlers[prefix]
        assert handlers, f"no DynamicItem handles {prefix!r}"
        assert set(handlers) <= added, f"{prefix!r}: a handler is not added to the bot"
        example = kind.make(*kind.example)
        routed = [cls for cls in added if cls.__discord_ui_compiled_template__.fullmatch(example)]
        assert len(routed) == 1 and routed[0] in handlers, (prefix, routed)


def test_no_two_prefixes_claim_one_id() -> None:
    _import_every_game()
    for kind in components.REGISTRY.kinds.values():
        example = kind.make(*kind.example)
        assert components.parse(example) == (kind, kind.parse(example))
        others = [k.prefix for k in components.REGISTRY.kinds.values() if k is not kind and k.parse(example)]
        assert others == []


def test_ids_are_built_and_parsed_by_their_kind() -> None:
    registry = Registry()
    kind = registry.register("t", {"game": "[0-9a-f]{4}", "n": r"\d{1,3}"}, summary="test", example=("abcd", "1"))
    assert kind.make("abcd", 12) == "t:abcd:12"
    assert registry.parse("t:abcd:12") == (kind, {"game": "abcd", "n": "12"})
    assert registry.parse("t:abcd:1234") is None and registry.parse("u:abcd:1") is None
    with pytest.raises(ComponentIdError):
        kind.make("ABCD", 1)  # does not fit its part
    with pytest.raises(ComponentIdError):
        kind.make("abcd")  # a part missing
    assert re.fullmatch(kind.pattern(n="7"), "t:abcd:7") and not re.fullmatch(kind.pattern(n="7"), "t:abcd:8")


def test_a_part_added_later_is_optional_so_ids_already_sent_still_parse() -> None:
    registry = Registry()
    kind = registry.register(
        "t", {"a": "[a-z]+", "n": r"\d{1,3}", "m": r"\d{1,3}"}, summary="test", example=("x", "1", "2"), optional=("m",)
    )
    assert kind.make("x", 1, 2) == "t:x:1:2" and kind.make("x", 1) == "t:x:1"
    assert registry.parse("t:x:1:2") == (kind, {"a": "x", "n": "1", "m": "2"})
    assert registry.parse("t:x:1") == (kind, {"a": "x", "n": "1"})  # an absent part is not in the parts
    assert registry.parse("t:x:1:") is None and registry.parse("t:x") is None and registry.parse("t:x:1:2:3") is None
    with pytest.raises(ComponentIdError):
        kind.make("x")  # a required part missing
    with pytest.raises(ComponentIdError, match="last"):
        registry.register("u", {"a": "a", "b": "b"}, summary="test", example=("a", "b"), optional=("a",))


def test_an_id_longer_than_discord_allows_is_refused_at_build_time() -> None:
    registry = Registry()
    kind = registry.register("long", {"arg": "[a-z]{0,200}"}, summary="test", example=("a",))
    assert len(kind.make("a" * 95)) == 100
    with pytest.raises(ComponentIdError, match="100"):
        kind.make("a" * 96)
    with pytest.raises(ComponentIdError):
        Components(_button("x" * 101))


def test_bad_prefixes_are_refused() -> None:
    registry = Registry()
    for bad in ("", "a:b", "Upper", "x" * 17):
        with pytest.raises(ComponentIdError):
            registry.register(bad, {"a": "a"}, summary="bad", example=("a",))


def test_a_message_with_two_equal_ids_is_refused_while_it_is_built() -> None:
    rows = Components(_button("sa:0123abcd:join:-"), _button("sa:0123abcd:leave:-"))
    with pytest.raises(DuplicateComponentId):
        rows.add_item(_button("sa:0123abcd:join:-"))
    assert rows.custom_ids() == ["sa:0123abcd:join:-", "sa:0123abcd:leave:-"]
    rows.add_item(discord.ui.Button(url="https://example.org", label="link"))  # no id: no clash


def test_parse_takes_any_string() -> None:
    _import_every_game()
    for value in ("", ":", "sa", "sa:", "sa:" + "9" * 5000, "elite:next:" + "1" * 5000, "\x00", "ﾟ:ﾟ"):
        assert components.parse(value) is None


def test_the_error_log_finds_a_flight_in_any_kind_that_names_one() -> None:
    from types import SimpleNamespace

    from bot.platform.errors import flight_of

    _import_every_game()

    def of(custom_id: object) -> str | None:
        return flight_of(SimpleNamespace(data={"custom_id": custom_id}))  # type: ignore[arg-type]

    assert of("sa:0123abcd:join:-") == "0123abcd" and of("sr:0123abcd:turn:0.first") == "0123abcd"
    assert of("elite:next:123456789012345678") is None and of("sa:nope") is None and of(None) is None


class _Dynamic(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"speedtest:(?P<n>[0-9]+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(custom_id=f"speedtest:{n}", label="x"))


async def test_a_view_of_dynamic_items_keeps_no_timeout_task() -> None:
    """discord.py sets 15 minutes on an ephemeral answer's view and keeps it alive with a task that
    long; routed by ids, our dynamic views refuse it (memory per running game), others keep it."""
    dynamic = Components(_Dynamic(1), _Dynamic(2))
    dynamic.timeout = 15 * 60.0  # what InteractionResponse.send_message(ephemeral=True) does
    assert dynamic.timeout is None
    plain = Components(_button("plain-1"))
    plain.timeout = 15 * 60.0
    assert plain.timeout == 15 * 60.0
    timed = Components(_Dynamic(3), timeout=30.0)  # a timeout asked for stays
    assert timed.timeout == 30.0
