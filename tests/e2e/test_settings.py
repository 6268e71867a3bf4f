"""`/settings show|set` in each language, `/mission schedule` with good and hostile times and the
server's custom-mission limits, against the real bot: what an admin and an ordinary member see."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.platform.hosting._text import tx
from bot.platform.i18n import t
from engine.flight.timeline import load_official
from tests.e2e.harness import ADMIN_WORLD as WORLD
from tests.e2e.harness import answer, assert_clean, fake_discord, public, start_bot

pytestmark = pytest.mark.e2e

LANGUAGES = ("en", "ru", "cs", "sk")


async def private(fd: Any, ix: Any) -> Any:
    message = await answer(fd, ix)
    assert message.ephemeral and message.visible_to == ix.user_id, message
    return message


async def settings_set(fd: Any, key: str, value: str, user: str = "alice") -> str:
    ix = await fd.slash("settings set", {"key": key, "value": value}, user=user, channel="bridge")
    return str((await private(fd, ix)).text)


async def test_settings_in_each_language_and_hostile_values(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot")

        for lang in LANGUAGES:
            assert (await settings_set(fd, "language", lang)).startswith(
                tx(lang, "saved", key="language", value=lang).split("**")[0]
            )
            shown = await private(fd, await fd.slash("settings show", user="alice", channel="bridge"))
            assert tx(lang, "title") in shown.text and tx(lang, "help.custom_max_kb") in shown.text
            # Hostile values: refused in the server's language, with the reason, never an apology.
            for key, value, code in (
                ("channels", "1" * 5000, "channels"),
                ("channels", f"<#{'9' * 5000}>", "channels"),
                ("custom_max_kb", "²", "number"),
                ("custom_max_count", "1" * 400, "number"),
                ("voice", "@everyone", "voice"),
            ):
                refused = await settings_set(fd, key, value)
                reason = t(lang, f"settings.problem.{code}", key=key, lo=0, hi=0, choices="")
                assert refused.startswith(tx(lang, "invalid", reason="")), (lang, refused)
                assert reason.split(":")[0] in refused, (lang, refused)

        # A good channel mention is kept; a member without Manage Server is refused.
        bridge = fd.world.channel("bridge").id
        assert str(bridge) in await settings_set(fd, "channels", f"<#{bridge}>")
        ix = await fd.slash("settings show", user="bob", channel="bridge")
        assert (await private(fd, ix)).text == tx("sk", "need_manage")
        assert_clean(fd)


async def test_mission_schedule_good_and_hostile_times(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot")
        for text, code in (
            ("²", "unreadable"),
            ("in " + "1" * 400 + "h", "too_far"),
            ("9" * 5000, "too_far"),
            ("25:00", "bad_clock"),
            ("0001-01-01T00:00+14:00", "past"),
            ("2001-01-01 10:00", "past"),
        ):
            ix = await fd.slash("mission schedule", {"time": text, "mission": "S1-1"}, user="bob", channel="bridge")
            refused = await private(fd, ix)
            assert refused.text == tx("en", "schedule.bad_time", reason=t("en", f"schedule.problem.{code}")), text
        ix = await fd.slash("mission schedule", {"time": "in 2h", "mission": "S1-1"}, user="bob", channel="bridge")
        announced = await answer(fd, ix)
        assert not announced.ephemeral and "**S1-1** is scheduled for <t:" in announced.text

        # In Czech, the refusal is Czech.
        ix = await fd.slash("settings set", {"key": "language", "value": "cs"}, user="alice", channel="bridge")
        await private(fd, ix)
        ix = await fd.slash("mission schedule", {"time": "²", "mission": "S1-1"}, user="carol", channel="bridge")
        assert (await private(fd, ix)).text == tx(
            "cs", "schedule.bad_time", reason=t("cs", "schedule.problem.unreadable")
        )
        assert sum("is scheduled for" in m.text for m in public(fd)) == 1
        assert_clean(fd)


async def test_a_custom_mission_limit_of_zero_refuses_the_upload(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot")
        timeline = load_official("S2-1").to_json_dict() | {"id": "DEEP-1", "name": "Deep space"}
        upload = {"file": ("deep.json", json.dumps(timeline).encode())}

        assert "custom_max_count" in await settings_set(fd, "custom_max_count", "0")
        ix = await fd.slash("mission custom add", upload, user="alice", channel="bridge")
        refused = await private(fd, ix)
        assert t("en", "custom.refused.count", limit=0, existing=0) == refused.text
        listed = await private(fd, await fd.slash("mission custom list", user="alice", channel="bridge"))
        assert "DEEP-1" not in listed.text

        # Raised to one: the upload is saved; a stranger cannot add one.
        await settings_set(fd, "custom_max_count", "1")
        ix = await fd.slash("mission custom add", upload, user="alice", channel="bridge")
        assert "DEEP-1" in (await private(fd, ix)).text
        ix = await fd.slash("mission custom add", upload, user="bob", channel="bridge")
        assert (await private(fd, ix)).text == t("en", "custom.need_manage")
        # The size limit: 1 KB, and the same id is replaced, not counted twice.
        await settings_set(fd, "custom_max_kb", "1")
        ix = await fd.slash("mission custom add", upload, user="alice", channel="bridge")
        assert "up to 1 KB" in (await private(fd, ix)).text
        assert_clean(fd)
