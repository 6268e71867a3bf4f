"""Star World: Escape's commands and lobby buttons that the game scenarios (test_escape.py) do not
press: the lobby's Leave and Cancel, /escape stop on an empty channel, /escape schema and
/escape-admin pack, as members, the host, an admin and a stranger would, first in English and then
in Czech."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.platform.i18n import t
from engine.escape.pack import Pack, load_pack
from tests.e2e.harness import ADMIN_WORLD, WAIT, answer, assert_clean, fake_discord, private, start_bot
from tests.e2e.test_escape import NO_VOICE, esc, esc_id

pytestmark = pytest.mark.e2e

# Nobody in voice (no speech to pay for); the Captain (alice) may manage the server.
WORLD: dict[str, Any] = {"guild": {**ADMIN_WORLD["guild"], **NO_VOICE["guild"]}}
DEFAULT_PACK = Path(__file__).resolve().parents[2] / "engine" / "escape" / "data" / "default_pack.json"


def now(fd: Any, message: Any) -> Any:
    return fd.world.messages_by_id[message.id]


async def test_escape_lobby_leave_and_cancel_schema_and_pack(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)

        # -- a lobby: two join, one leaves; a stranger, the host and a guest press what is not theirs --
        ix = await fd.slash("escape start", {"mode": "digital", "difficulty": "easy"}, user="alice", channel="bridge")
        lobby = await answer(fd, ix, esc("join"))
        for user in ("bob", "carol"):
            await fd.click(lobby, esc_id(lobby, "join"), user=user)
        await fd.wait_for(lambda: "(3/4)" in now(fd, lobby).text, WAIT, "three seated")
        left = await fd.click(lobby, esc_id(lobby, "leave"), user="carol")
        assert left.ack_type == 7  # the lobby itself is redrawn
        lobby = now(fd, lobby)
        assert "(2/4)" in lobby.text and "Carol" not in lobby.text, lobby.text
        stranger = await private(fd, await fd.click(lobby, esc_id(lobby, "leave"), user="erin"))
        assert stranger.text == t("en", "permissions.seated"), stranger.text
        host = await private(fd, await fd.click(lobby, esc_id(lobby, "leave"), user="alice"))
        assert host.text == t("en", "table.refused.host_stays"), host.text
        guest = await private(fd, await fd.click(lobby, esc_id(lobby, "cancel"), user="bob"))
        assert guest.text == t("en", "permissions.host"), guest.text
        assert "(2/4)" in now(fd, lobby).text and esc("cancel")(now(fd, lobby))  # nothing changed
        cancelled = await fd.click(lobby, esc_id(lobby, "cancel"), user="alice")
        assert cancelled.ack_type == 7
        assert now(fd, lobby).text == t("en", "escape.ui.cancelled") and now(fd, lobby).custom_ids == []
        nothing = await private(fd, await fd.slash("escape stop", user="alice", channel="bridge"))
        assert nothing.text == t("en", "escape.ui.no_game"), nothing.text

        # -- /escape schema for anyone; the pack for admins only; in Czech --------------------------------
        ix = await fd.slash("settings set", {"key": "language", "value": "cs"}, user="alice", channel="bridge")
        await private(fd, ix)
        schema = await private(fd, await fd.slash("escape schema", user="erin", channel="bridge"))
        assert schema.text == t("cs", "escape.ui.schema")
        assert [a.filename for a in schema.attachments] == ["escape-pack.schema.json"]
        assert "properties" in json.loads(schema.attachments[0].data)

        raw = DEFAULT_PACK.read_bytes()
        refused = await private(fd, await fd.slash("escape-admin pack", {"file": ("pack.json", raw)}, user="bob"))
        assert refused.text == t("cs", "permissions.manager"), refused.text
        broken = await private(
            fd, await fd.slash("escape-admin pack", {"file": ("pack.json", b"{not json")}, user="alice")
        )
        why = t("cs", "escape.pack.not_json", where="pack.json")
        assert broken.text == t("cs", "escape.ui.pack_refused", why=why), broken.text
        loaded = await private(fd, await fd.slash("escape-admin pack", {"file": ("pack.json", raw)}, user="alice"))
        pack = load_pack(raw)
        assert isinstance(pack, Pack)
        counts = {
            "characters": len(pack.characters),
            "gear": len(pack.gear_outer) + len(pack.gear_inner),
            "events": len(pack.local_outer) + len(pack.local_inner) + len(pack.general),
            "missions": len(pack.missions),
        }
        assert loaded.text == t("cs", "escape.ui.pack_loaded", pack=pack.id, **counts), loaded.text
        assert_clean(fd)
