"""The server's own commands end to end, with an admin and ordinary members in one start-up:
/about, /help, /settings show and set for every key (and what each one changes for the next
player), /mission custom add|list|remove, /legion schema and /legion-admin pack, in English and then in
Czech.

Why one bot for all of it: each start-up costs seconds of CI, and these commands share one
thing worth proving together, that a setting an admin saves is what the next member sees, in the
server's language, while a member without Manage Server is refused politely every time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.platform.hosting._text import tx
from bot.platform.i18n import t
from engine.flight.timeline import load_official
from tests.e2e.harness import ADMIN_WORLD as WORLD
from tests.e2e.harness import WAIT, answer, assert_clean, fake_discord, has, private, public, start_bot

pytestmark = pytest.mark.e2e


async def slash_text(fd: Any, command: str, user: str, channel: str = "bridge", **opts: Any) -> str:
    return str((await private(fd, await fd.slash(command, opts, user=user, channel=channel))).text)


async def test_about_help_settings_and_custom_missions_as_admin_and_members(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=60)
        bridge = fd.world.channel("bridge").id
        crew_role = fd.world.role("Crew").id

        # /about: any member may ask which process serves the server; nobody else sees it.
        about = await slash_text(fd, "about", "erin")
        assert "Process:" in about and "Storage: SQLite" in about, about

        # /settings: a member without Manage Server is refused, for show and for set alike.
        assert await slash_text(fd, "settings show", "bob") == tx("en", "need_manage")
        assert await slash_text(fd, "settings set", "bob", key="voice", value="off") == tx("en", "need_manage")

        # Every key, set by the admin and then shown back as saved.
        values = {
            "channels": (f"<#{bridge}>", f"<#{bridge}>"),
            "voice": ("off", "off"),
            "tts": ("espeak", "espeak"),
            "starters": (f"<@&{crew_role}>", f"<@&{crew_role}>"),
            "log": ("channel", "channel"),
            "leaderboard": ("public", "public"),
            "custom_max_count": ("2", "2"),
            "custom_max_kb": ("32", "32"),
        }
        for key, (typed, shown) in values.items():
            saved = await slash_text(fd, "settings set", "alice", key=key, value=typed)
            assert saved == tx("en", "saved", key=key, value=shown), saved
        shown_all = await private(fd, await fd.slash("settings show", user="alice", channel="bridge"))
        for key, (_, shown) in values.items():
            assert f"**{key}**: {shown} — {tx('en', f'help.{key}')}" in shown_all.text, (key, shown_all.text)

        # The server speaks Czech from now on: the admin's own confirmation already does.
        assert await slash_text(fd, "settings set", "alice", key="language", value="cs") == tx(
            "cs", "saved", key="language", value="cs"
        )
        shown_all = await private(fd, await fd.slash("settings show", user="alice", channel="bridge"))
        assert tx("cs", "title") in shown_all.text and f"**language**: cs — {tx('cs', 'help.language')}" in (
            shown_all.text
        )
        assert await slash_text(fd, "settings show", "carol") == tx("cs", "need_manage")

        # What `channels` and `starters` change: a flight elsewhere, or by a member without the
        # role, is refused in Czech; the admin may start anywhere (to repair a bad setting).
        refused = await slash_text(fd, "mission start", "bob", channel="general", mission="S1-1")
        assert refused == tx("cs", "refused.channel", channels=f"<#{bridge}>"), refused
        refused = await slash_text(fd, "mission start", "erin", mission="S1-1")
        assert refused == tx("cs", "refused.role", role=f"<@&{crew_role}>"), refused
        ix = await fd.slash("mission start", {"mission": "S1-1"}, user="alice", channel="general")
        lobby = await fd.wait_for_message(channel="general", predicate=has("join"), timeout=60)
        assert ix.acked and "S1-1" in lobby.text
        assert await slash_text(fd, "mission abort", "bob", channel="general") == t("cs", "error.not_host_or_manager")
        aborted = await answer(fd, await fd.slash("mission abort", user="alice", channel="general"))
        assert not aborted.ephemeral and aborted.text == t(
            "cs", "flight.aborted", user=f"<@{fd.world.user('alice').id}>"
        )
        assert await slash_text(fd, "mission status", "bob", channel="general") == t("cs", "error.no_flight")
        # Back to any channel and everyone: bob's start is no longer refused.
        await slash_text(fd, "settings set", "alice", key="channels", value="any")
        await slash_text(fd, "settings set", "alice", key="starters", value="everyone")

        # /mission custom: an admin adds, every member lists, only the admin removes; Czech throughout.
        assert await slash_text(fd, "mission custom list", "bob") == t("cs", "custom.none")
        timeline = load_official("S2-1").to_json_dict() | {"id": "DEEP-1", "name": "Hluboký vesmír"}
        upload = {"file": ("deep.json", json.dumps(timeline).encode())}
        refused = await slash_text(fd, "mission custom add", "bob", **upload)
        assert refused == t("cs", "custom.need_manage"), refused
        saved = await slash_text(fd, "mission custom add", "alice", **upload)
        assert saved == t("cs", "custom.saved", mission="DEEP-1"), saved
        listed = await private(fd, await fd.slash("mission custom list", user="dave", channel="bridge"))
        assert t("cs", "custom.title") in listed.text and "DEEP-1" in listed.text and "Hluboký vesmír" in listed.text
        refused = await slash_text(fd, "mission custom remove", "bob", mission="DEEP-1")
        assert refused == t("cs", "custom.need_manage"), refused
        assert await slash_text(fd, "mission custom remove", "alice", mission="NOPE-9") == t(
            "cs", "custom.unknown", mission="NOPE-9"
        )
        assert await slash_text(fd, "mission custom remove", "alice", mission="DEEP-1") == t(
            "cs", "custom.removed", mission="DEEP-1"
        )
        assert await slash_text(fd, "mission custom list", "bob") == t("cs", "custom.none")

        # Scarlet Legion's server setup: the schema for anyone, the pack for admins only, in Czech.
        schema = await private(fd, await fd.slash("legion schema", user="bob", channel="bridge"))
        assert schema.text == t("cs", "legion.pack.schema_file")
        assert [a.filename for a in schema.attachments] == ["legion-pack.schema.json"]
        assert "properties" in json.loads(schema.attachments[0].data)
        refused = await slash_text(fd, "legion-admin pack", "bob", file=("pack.json", b"{}"))
        assert refused == t("cs", "permissions.manager"), refused
        broken = await slash_text(fd, "legion-admin pack", "alice", file=("pack.json", b"{not json"))
        assert broken.startswith(t("cs", "legion.pack.not_loaded", why="").rstrip(" .:")), broken
        assert await slash_text(fd, "legion-admin pack", "alice") == t("cs", "legion.pack.reset")

        # /help in Czech, for a member who never changed anything.
        ix = await fd.slash("help", user="carol", channel="bridge")
        helped = await private(fd, ix)
        await fd.wait_for(lambda: all(not m.loading for m in ix.messages) and len(ix.messages) >= 2, WAIT, "help")
        every = "\n".join(m.text for m in ix.messages)  # /help spans several messages (6,000 characters each)
        assert "/mission start" in every and "/settings set" in every and "/escape start" in every
        assert every.index("/mission start") < every.index("/elite start") < every.index("/legion start")
        assert t("cs", "evening.help.title") in helped.text and t("cs", "evening.help.first_flight") in helped.text
        assert t("en", "evening.help.first_flight") not in helped.text

        # Nothing public but the lobby and the abort line: refusals and lists are private.
        assert public(fd, "bridge") == []
        assert_clean(fd)
