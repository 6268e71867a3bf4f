"""ELITE's seats and store: the host's controls, one game per channel held by the store, the
starters setting, and simultaneous presses all kept (acknowledgements against the stored game)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.games.elite._document import restore
from bot.games.elite.storage import EliteStore
from tests.elite.test_cog import HeroPicker, ix, new_cog, press, rig, start_game, storage

__all__ = ["rig", "storage"]  # the fixtures of test_cog.py

STRANGER, MANAGER = 7, 8


async def test_a_second_member_cannot_steer_the_hosts_game(rig: Any) -> None:
    cog, channel, _, storage = rig
    await start_game(cog, channel)
    for action in ("next", "start", "pause", "minus", "plus", "victory", "defeat", "stop", "voice", "reveal"):
        answer = await press(cog, channel, action, user=STRANGER)
        kind, content, kw = answer.response.calls[0]
        assert kind == "send" and kw["ephemeral"] and "only the host of this game" in content, action
    session = cog.sessions[channel.id]
    assert session.game.phase != "over" and session.game.round <= 1
    stored = await EliteStore(storage).game(channel.id)
    assert stored is not None and stored.state["actions"] == [] and stored.host_id == 1
    assert stored.state["game"]["round"] == 0  # no stranger's press reached the stored game
    roll = ix(channel, STRANGER)
    await cog.roll.callback(cog, roll, alien="tapeworm", in_range="kara", hit_value=4)
    assert "only the host of this game" in roll.response.calls[0][1]
    # Manage Server may step in (a host who left); the press is a normal step
    manager = ix(channel, MANAGER, on=cog.status_messages[channel.id], admin=True)
    await cog.on_button(manager, channel.id, "next")
    assert manager.response.calls[0][0] == "edit"


async def test_a_second_elite_start_is_refused_in_the_channel_and_by_the_store(rig: Any) -> None:
    cog, channel, clock, storage = rig
    await start_game(cog, channel)
    again = ix(channel, STRANGER)
    await cog.start.callback(cog, again, map="crash_site", mission="recon", difficulty="easy", players=2)
    kind, content, kw = again.response.calls[0]
    assert kind == "send" and kw["ephemeral"] and "already" in content.lower()
    # another process over the same database (or a race of two wizards): the unique index refuses it
    other = new_cog(storage, clock)
    first = ix(channel, STRANGER)
    await other.start.callback(other, first, map="crash_site", mission="recon", difficulty="easy", players=2)
    picker: HeroPicker = first.response.calls[0][2]["view"]
    picker.select._values = ["kara", "gerid"]
    pick = ix(channel, STRANGER)
    await picker._picked(pick)
    assert "already" in (pick.response.calls[0][1] or "").lower()
    assert channel.id not in other.sessions
    (stored,) = await EliteStore(storage).games()
    assert stored.host_id == 1 and stored.state["config"]["mission"] == "exploration"


async def test_starting_respects_the_servers_starters_channels(rig: Any) -> None:
    cog, channel, _, storage = rig
    await storage.set_setting(42, "channels", [123456789012345678])
    refused = ix(channel)
    await cog.start.callback(cog, refused, map="crash_site", mission="recon", difficulty="easy", players=2)
    kind, content, kw = refused.response.calls[0]
    assert kind == "send" and kw["ephemeral"] and "<#123456789012345678>" in content
    admin = ix(channel, admin=True)
    await cog.start.callback(cog, admin, map="crash_site", mission="recon", difficulty="easy", players=2)
    assert isinstance(admin.response.calls[0][2]["view"], HeroPicker)


async def test_simultaneous_presses_are_all_stored(rig: Any) -> None:
    """Five presses of +15 s at the same moment (the host's and Manage Server's): each one that
    was acknowledged is in the stored game, and a restore from the document has the same timer."""
    cog, channel, clock, storage = rig
    await start_game(cog, channel)
    for _ in range(3):
        await press(cog, channel, "next")
    session = cog.sessions[channel.id]
    assert session.game.phase == "action"
    before = session.game.timer.remaining()  # type: ignore[union-attr]
    status = cog.status_messages[channel.id]
    presses = [ix(channel, 1 if n % 2 else MANAGER, on=status, admin=not n % 2) for n in range(5)]
    await asyncio.gather(*(cog.on_button(p, channel.id, "plus") for p in presses))
    acknowledged = sum(1 for p in presses if p.response.calls and p.response.calls[0][0] == "edit")
    assert acknowledged == 5
    stored = await EliteStore(storage).game(channel.id)
    assert stored is not None
    assert [a[1] for a in stored.state["actions"]].count("adjust") == acknowledged
    assert cog.sessions[channel.id].game.timer.remaining() == before + 15 * acknowledged  # type: ignore[union-attr]
    restored = restore(stored.state, None, clock)
    assert restored.game.timer.remaining() == before + 15 * acknowledged  # type: ignore[union-attr]


async def test_presses_from_two_processes_over_one_database_are_all_kept(rig: Any) -> None:
    """Two bot processes (two cogs over one database, as during a rolling restart) press +15 s
    at once: the version check makes the loser load again, so both presses are stored."""
    cog, channel, clock, storage = rig
    await start_game(cog, channel)
    for _ in range(3):
        await press(cog, channel, "next")
    other = new_cog(storage, clock)
    await other.cog_load()  # takes the game up from the store
    before = cog.sessions[channel.id].game.timer.remaining()  # type: ignore[union-attr]
    status = cog.status_messages[channel.id]
    first, second = ix(channel, on=status), ix(channel, on=status)
    await asyncio.gather(cog.on_button(first, channel.id, "plus"), other.on_button(second, channel.id, "plus"))
    assert first.response.calls[0][0] == "edit" and second.response.calls[0][0] == "edit"
    stored = await EliteStore(storage).game(channel.id)
    assert stored is not None and [a[1] for a in stored.state["actions"]].count("adjust") == 2
    assert restore(stored.state, None, clock).game.timer.remaining() == before + 30  # type: ignore[union-attr]


async def test_a_step_whose_store_failed_did_not_happen_and_says_so(rig: Any) -> None:
    """The store fails once: that press is refused ("try again") and the game is as stored; the
    next press is stored.  No acknowledged step exists only in memory."""
    cog, channel, _, storage = rig
    await start_game(cog, channel)
    real = storage.transaction
    calls = 0

    def flaky() -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("disk full for a moment")
        return real()

    storage.transaction = flaky  # type: ignore[method-assign]
    try:
        failed = await press(cog, channel, "next")
        assert failed.response.calls[0][0] == "send" and "try again" in failed.response.calls[0][1]
        assert cog.sessions[channel.id].game.round == 0
        stepped = await press(cog, channel, "next")
        assert stepped.response.calls[0][0] == "edit"
    finally:
        storage.transaction = real  # type: ignore[method-assign]
    stored = await EliteStore(storage).game(channel.id)
    assert stored is not None
    assert [a[1] for a in stored.state["actions"]] == ["next"]
    assert stored.state["game"]["round"] == cog.sessions[channel.id].game.round == 1


async def test_a_process_that_never_saw_the_game_serves_its_buttons(rig: Any) -> None:
    """The game is the stored document, not a process: a second process over the same database
    (here without its start-up resume) answers a press by taking the game up from the store."""
    cog, channel, clock, storage = rig
    await start_game(cog, channel)
    other = new_cog(storage, clock)  # cog_load never ran: it knows no game
    status = cog.status_messages[channel.id]
    stranger = ix(channel, STRANGER, on=status)
    await other.on_button(stranger, channel.id, "next")
    assert "only the host of this game" in stranger.response.calls[0][1]  # the seats came with it
    host = ix(channel, on=status)
    await other.on_button(host, channel.id, "next")
    assert host.response.calls[0][0] == "edit" and "Round 1 of 8" in host.response.calls[0][1]
    stored = await EliteStore(storage).game(channel.id)
    assert stored is not None and stored.state["game"]["round"] == 1
    empty = ix(channel, on=status)
    await other.on_button(empty, 999, "next")  # no game in that channel
    assert empty.response.calls[0][2]["ephemeral"]


async def test_a_game_stored_as_a_version_1_journal_carries_on(rig: Any) -> None:
    """A game stored before snapshots (its steps as a journal) is migrated on its first load and
    written back as a snapshot, then plays on."""
    cog, channel, _, storage = rig
    config = {"map": "crash_site", "mission": "recon", "difficulty": "easy", "players": 2, "heroes": ["kara", "gerid"]}
    journal = {
        "version": 1,
        "guild_id": 42,
        "channel_id": channel.id,
        "host_id": 1,
        "lang": "en",
        "seed": 3,
        "config": config,
        "status_message_id": None,
        "voice_channel_id": None,
        "actions": [[990.0, "next"], [991.0, "next"]],
        "log": ["Round 1 of 8."],
    }
    await EliteStore(storage).start(42, channel.id, journal, None, host_id=1)
    await cog.cog_load()  # the restart after the upgrade
    assert cog.sessions[channel.id].game.phase == "spawn"
    stored = await EliteStore(storage).game(channel.id)
    assert stored is not None and stored.state["version"] == 2 and stored.state["game"]["phase"] == "spawn"
    host = ix(channel)
    await cog.on_button(host, channel.id, "next")
    assert host.response.calls[0][0] == "edit" and cog.sessions[channel.id].game.phase == "action"


async def test_a_restart_ends_an_unreadable_game_but_keeps_one_the_store_failed_to_load(rig: Any) -> None:
    cog, channel, clock, storage = rig
    elite = EliteStore(storage)
    await elite.start(42, channel.id, {"version": 2, "game": {"phase": "lunch"}}, None, host_id=1)
    await cog.cog_load()  # unreadable: ended (abandoned), the channel is free again
    assert await elite.games() == [] and channel.id not in cog.sessions

    await start_game(cog, channel)
    again = new_cog(storage, clock)
    real = storage.transaction
    storage.transaction = lambda: (_ for _ in ()).throw(OSError("database restarting"))  # type: ignore[method-assign]
    try:
        await again.cog_load()  # the store fails for a moment: the game is not dropped
    finally:
        storage.transaction = real  # type: ignore[method-assign]
    assert [g.channel_id for g in await elite.games()] == [channel.id]
    host = ix(channel, on=cog.status_messages[channel.id])
    await again.on_button(host, channel.id, "next")  # the next click takes it up
    assert host.response.calls[0][0] == "edit"


class Leases:
    """The cluster's clock leases as two processes over one database see them (one holder each)."""

    def __init__(self) -> None:
        self.holders: dict[str, str] = {}

    def of(self, process: str) -> Any:
        leases = self

        class Cluster:
            async def acquire(self, name: str) -> bool:
                return leases.holders.setdefault(name, process) == process

            def holds(self, name: str) -> bool:
                return leases.holders.get(name) == process

            async def release(self, name: str) -> None:
                if leases.holders.get(name) == process:
                    del leases.holders[name]

        return Cluster()


async def test_only_the_lease_holder_runs_the_timer_and_a_free_lease_is_taken_up(rig: Any) -> None:
    cog, channel, clock, storage = rig
    leases = Leases()
    cog.bot.cluster = leases.of("a")
    frozen = asyncio.Event()

    async def parked(dt: float) -> None:  # timer tasks wait: this test is about who runs them
        await frozen.wait()

    cog.sleep = parked
    await start_game(cog, channel)
    for _ in range(3):
        await press(cog, channel, "next")
    await press(cog, channel, "start")
    assert channel.id in cog.tasks and leases.holders == {f"elite-{channel.id}": "a"}

    other = new_cog(storage, clock)
    other.bot.cluster = leases.of("b")
    other.sleep = parked
    status = cog.status_messages[channel.id]
    await other.on_button(ix(channel, on=status), channel.id, "plus")  # b serves a click...
    assert channel.id not in other.tasks  # ...but a's clock lease stands: b runs no second timer

    await cog.cog_unload()  # a stops (its lease is handed back)
    late = new_cog(storage, clock)
    late.bot.cluster = leases.of("c")
    late.sleep = parked
    await late.on_button(ix(channel, on=status), channel.id, "plus")
    assert channel.id in late.tasks and leases.holders == {f"elite-{channel.id}": "c"}
    for task in (*other.tasks.values(), *late.tasks.values()):
        task.cancel()


async def test_after_a_game_ends_the_next_one_started_elsewhere_is_served(rig: Any) -> None:
    """This process ran the channel's last game to its end; the next one was started through
    another process: a press on it here is its step, not "no game"."""
    cog, channel, clock, storage = rig
    await start_game(cog, channel)
    await press(cog, channel, "stop")
    assert cog.sessions[channel.id].game.phase == "over"
    other = new_cog(storage, clock)
    await start_game(other, channel)
    host = ix(channel, on=other.status_messages[channel.id])
    await cog.on_button(host, channel.id, "next")
    assert host.response.calls[0][0] == "edit"
    assert cog.sessions[channel.id].game.round == 1 and cog.sessions[channel.id].game.phase == "event"
