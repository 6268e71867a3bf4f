"""Several members pressing the same button at the same instant, for every game, in the real bot.

Why: Discord delivers simultaneous clicks as simultaneous interactions, and a press the bot
acknowledges as done must be in what it stored (issue 23: three campaign votes acknowledged, one
stored).  Each scenario fires its presses at once (`asyncio.gather` of fakecord clicks), sorts the
answers into applied (the clicked message was updated) and refused (a private answer), and compares
that count with the bot's SQLite file: the lobby's seats, the flight's journal and members, the
campaign's votes, ELITE's journal, a table game's seats.  Every press must be answered within
Discord's 3 s (`assert_clean`).  Two bot processes in all, so the file stays quick.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.games import EXTENSIONS
from bot.platform.i18n import t
from tests.e2e.harness import (
    WAIT,
    Flight,
    answer,
    assert_clean,
    cid,
    fake_discord,
    has,
    options,
    public,
    start_bot,
)

pytestmark = pytest.mark.e2e

# The five default members and a sixth, so that one more member than a full crew presses Join.
MEMBERS = [
    {"username": "alice", "global_name": "Alice", "roles": ["Captain", "Crew"], "voice": "Bridge Voice"},
    {"username": "bob", "global_name": "Bob", "roles": ["Crew"], "voice": "Bridge Voice"},
    {"username": "carol", "global_name": "Carol", "roles": ["Crew"], "voice": "Bridge Voice"},
    {"username": "dave", "global_name": "Dave", "roles": ["Crew"], "voice": "Bridge Voice"},
    {"username": "erin", "global_name": "Erin", "roles": [], "voice": None, "dm_open": False},
    {"username": "frank", "global_name": "Frank", "roles": ["Crew"], "voice": None},
]
WORLD = {"guild": {"members": MEMBERS}}
# The session games that sit at the platform's table (bot/platform/tables.py), with the options
# `/<game> start` needs; a game is exercised once its extension is listed in bot.games.EXTENSIONS.
TABLE_GAMES = {"legion": {"seed": 4}, "escape": {"mode": "digital", "difficulty": "easy", "seed": 4}}
# Each table game's public "open my private panel" button, and its panels' move buttons.
PANEL = {"legion": ("hand", "act"), "escape": ("panel", "do")}


# -- reading answers and the store -----------------------------------------------------------------
async def applied(fd: Any, ix: Any) -> bool:
    """True when the press was carried out (its answer updated the clicked message), False when it
    was refused (a private answer).  A deferred update (the bot was slow) is decided by what came
    after it: an edit of the original message, or a private follow-up."""
    await fd.wait_for(lambda: ix.acked, WAIT, f"an answer to {ix.name}")
    if ix.ack_type == 7:
        return True
    if ix.ack_type == 6:

        def then() -> str | None:
            for call in fd.rest_log:
                if ix.token in call.path:
                    return "edit" if call.method == "PATCH" else "followup"
            return None

        return await fd.wait_for(then, WAIT, f"the deferred answer to {ix.name}") == "edit"
    refusal = await answer(fd, ix)
    assert refusal.ephemeral, (ix.name, refusal.text)
    return False


async def press_at_once(fd: Any, presses: list[tuple[Any, str, str, list[str] | None]]) -> list[Any]:
    """Fire (message, custom id, member, select values) clicks at the same instant."""
    return list(
        await asyncio.gather(*(fd.click(m, c, user=u, values=v) for m, c, u, v in presses)),
    )


async def sort_out(fd: Any, users: list[str], interactions: list[Any]) -> tuple[list[str], list[Any]]:
    """The members whose press was applied, and the refused interactions."""
    verdicts = [await applied(fd, ix) for ix in interactions]
    done = [u for u, ok in zip(users, verdicts, strict=True) if ok]
    refused = [ix for ix, ok in zip(interactions, verdicts, strict=True) if not ok]
    return done, refused


def query(workdir: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(workdir / "bot.sqlite3") as db:
        return list(db.execute(sql, args).fetchall())


def uid(fd: Any, user: str) -> int:
    return int(fd.user(user).id)


# -- Space Alert: the lobby, the stations, the campaign vote ---------------------------------------
async def test_space_alert_presses_at_once(tmp_path: Path) -> None:
    workdir = tmp_path / "bot"
    async with fake_discord(WORLD) as fd:
        # A slow clock (phase 1 lasts about 45 s) so that the presses meet a phase still open.
        await start_bot(fd, workdir, time_scale=5)

        # Five members press Join on a lobby with one free place fewer, bob twice (a double click):
        # four seats, each member once; the two other presses are refused.
        flight = Flight(fd, "bridge", 0, "alice", ("alice",))
        lobby = await flight.open_lobby("S1-3", seed=11, voice="off")
        joiners = ["bob", "carol", "dave", "erin", "frank", "bob"]
        join = cid(lobby, "join")
        seated, refused = await sort_out(
            fd, joiners, await press_at_once(fd, [(lobby, join, u, None) for u in joiners])
        )
        assert len(set(seated)) == len(seated) == 4 and len(refused) == 2, (seated, [ix.messages for ix in refused])
        (crew_json,) = query(workdir, "SELECT crew FROM flights WHERE id = ?", flight.flight_id)[0]
        assert sorted(m["user_id"] for m in json.loads(crew_json)) == sorted(uid(fd, u) for u in ["alice", *seated])
        joins = query(
            workdir, "SELECT actor_id FROM flight_events WHERE flight_id = ? AND kind = 'join'", flight.flight_id
        )
        assert sorted(a for (a,) in joins) == sorted(uid(fd, u) for u in seated)

        # The host double-clicks Start: one flight starts, the second press is refused.
        crew = ["alice", *seated]
        lobby = fd.world.messages_by_id[lobby.id]
        start = cid(lobby, "start")
        started, refused = await sort_out(
            fd, ["alice", "alice"], await press_at_once(fd, [(lobby, start, "alice", None)] * 2)
        )
        assert started == ["alice"] and len(refused) == 1
        deck = await fd.wait_for_message(channel="bridge", predicate=has("station"), timeout=WAIT)
        starts = query(
            workdir, "SELECT COUNT(*) FROM flight_events WHERE flight_id = ? AND kind = 'start'", flight.flight_id
        )
        assert starts == [(1,)]

        # The whole crew opens its stations at once, places a card at once, presses Finish at once.
        opened = await press_at_once(fd, [(deck, cid(deck, "station"), u, None) for u in crew])
        hands = [await answer(fd, ix, has("pick")) for ix in opened]
        picks = await press_at_once(
            fd, [(h, cid(h, "pick"), u, [options(h, "pick")[0]]) for h, u in zip(hands, crew, strict=True)]
        )
        hands = [ix.message for ix in picks]
        places = await press_at_once(
            fd, [(h, cid(h, "place"), u, [options(h, "place")[0]]) for h, u in zip(hands, crew, strict=True)]
        )
        placed, refused = await sort_out(fd, crew, places)
        assert placed == crew and refused == []
        hands = [ix.message for ix in places]
        # bob presses his Finish twice at once (a double click): one phase is finished, not two.
        finishers = [*crew, "bob"]
        finish_presses = [(h, cid(h, "finish"), u, None) for h, u in zip(hands, crew, strict=True)]
        finish_presses.append((hands[1], cid(hands[1], "finish"), "bob", None))
        finished, refused = await sort_out(fd, finishers, await press_at_once(fd, finish_presses))
        assert Counter(finished) == Counter(crew), finished
        (second,) = refused
        assert "already finished phase 1" in (await answer(fd, second)).text

        events = query(
            workdir,
            "SELECT actor_id, kind FROM flight_events WHERE flight_id = ? AND kind IN ('place', 'finish')",
            flight.flight_id,
        )
        stored = Counter((actor, kind) for actor, kind in events)
        assert stored == Counter({(uid(fd, u), k): 1 for u in crew for k in ("place", "finish")})
        (state_json, crew_json) = query(workdir, "SELECT state, crew FROM flights WHERE id = ?", flight.flight_id)[0]
        names = {m["name"] for m in json.loads(crew_json)}
        members = {m["name"]: m for m in json.loads(state_json)["members"] if m["name"] in names}
        assert {n: m["phase"] for n, m in members.items()} == dict.fromkeys(names, 2)
        assert all(len(m["board"]) == 1 for m in members.values())
        assert len([m for m in public(fd) if has("station")(m)]) == 1  # one flight deck, one start

        # The host double-clicks Pause while a crew member presses it; then Resume twice at once.
        for action, users in (("pause", ["alice", "bob", "alice"]), ("resume", ["alice", "alice"])):
            deck = fd.world.messages_by_id[deck.id]
            button = cid(deck, action)
            done, refused = await sort_out(fd, users, await press_at_once(fd, [(deck, button, u, None) for u in users]))
            assert done == ["alice"] and len(refused) == len(users) - 1, (action, done)
            stored = query(
                workdir, "SELECT actor_id FROM flight_events WHERE flight_id = ? AND kind = ?", flight.flight_id, action
            )
            assert stored == [(uid(fd, "alice"),)], (action, stored)
        (state_json,) = query(workdir, "SELECT state FROM flights WHERE id = ?", flight.flight_id)[0]
        assert json.loads(state_json)["paused_by"] is None
        aborted = await fd.slash("mission abort", {}, user="alice", channel="bridge")
        await answer(fd, aborted)

        # A campaign of five: all five vote at once on each difficulty; a stranger is refused.
        crew_options = {"p2": "bob", "p3": "carol", "p4": "dave", "p5": "erin"}
        voters = ["alice", "bob", "carol", "dave", "erin"]
        opened_ix = await fd.slash("campaign start", crew_options, user="alice", channel="general")
        vote = await answer(fd, opened_ix)

        def button(what: str) -> str:
            return next(c for c in vote.custom_ids if c.endswith(f":{what}"))

        common = [(vote, button("common:yellow"), u, None) for u in voters]
        common.append((vote, button("common:yellow"), "frank", None))
        counted, refused = await sort_out(fd, [*voters, "frank"], await press_at_once(fd, common))
        assert counted == voters and len(refused) == 1
        (state_json,) = query(workdir, "SELECT state FROM campaigns WHERE status = 'running'")[0]
        votes = json.loads(state_json)["session"]["votes"]
        assert votes == {"common": {str(uid(fd, u)): "yellow" for u in counted}}

        # The serious vote closes the vote: a lost press would leave it open with four votes.
        choice = {"alice": "white", "bob": "yellow", "carol": "yellow", "dave": "white", "erin": "yellow"}
        serious = [(vote, button(f"serious:{choice[u]}"), u, None) for u in voters]
        counted, refused = await sort_out(fd, voters, await press_at_once(fd, serious))
        assert counted == voters and refused == []
        (state_json,) = query(workdir, "SELECT state FROM campaigns WHERE status = 'running'")[0]
        session = json.loads(state_json)["session"]
        assert session["phase"] == "flying" and session["votes"] == {}
        assert session["campaign"]["difficulties"][-1] == ["yellow", "yellow"]
        assert_clean(fd)


# -- ELITE: the host's controls; the platform's table games -----------------------------------------
ELITE = {"map": "abandoned_lab", "mission": "extermination", "difficulty": "easy", "players": 2}


def elite_games(workdir: Path) -> list[tuple[int, dict[str, Any]]]:
    """(host id, stored document) of each ELITE game in progress: in ELITE's own table, or in the
    platform's sessions once ELITE keeps its games there (either layout is read, so this scenario
    outlives that move)."""
    rows = query(
        workdir,
        "SELECT host_id, state FROM game_sessions WHERE game = 'elite' AND status IN ('lobby', 'running')",
    )
    with contextlib.suppress(sqlite3.OperationalError):  # no such table: the games are sessions
        rows += query(workdir, "SELECT host_id, state FROM elite_games")
    return [(int(host), json.loads(state)) for host, state in rows]


def elite_actions(workdir: Path) -> list[list[Any]]:
    """The stored steps of the one ELITE game: [at, step, *args] per step."""
    games = elite_games(workdir)
    assert len(games) == 1, games
    return list(games[0][1]["actions"])


async def until(check: Any, what: str) -> None:
    """Wait until `check()` holds: for what the bot stores after it has answered (no fakecord
    event marks a database write, so this polls the file, bounded by WAIT)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not check() and loop.time() < deadline:
        await asyncio.sleep(0.05)
    assert check(), what


async def test_elite_controls_and_table_lobbies_at_once(tmp_path: Path) -> None:
    workdir = tmp_path / "bot"
    tables = [g for g in TABLE_GAMES if f"bot.games.{g}" in EXTENSIONS]
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, workdir, time_scale=20)
        await fd.wait_ready(timeout=WAIT, commands=tables)

        # bob hosts; carol, dave and erin are members without Manage Server.
        picker = await answer(fd, await fd.slash("elite start", ELITE, user="bob", channel="bridge"))
        await fd.click(picker, picker.custom_ids[0], user="bob", values=["kinje", "kara"])
        status = await fd.wait_for_message(
            "Project: ELITE", channel="bridge", predicate=lambda m: bool(m.buttons), timeout=WAIT
        )

        async def round_of(action: str, users: list[str]) -> tuple[list[str], list[Any]]:
            """Every member presses the button as the status message shows it now, at once (a
            double click: two presses of one id)."""
            message = fd.world.messages_by_id[status.id]
            presses = [(message, cid(message, action), u, None) for u in users]
            return await sort_out(fd, users, await press_at_once(fd, presses))

        already = t("en", "elite.ui.already_done")

        def steps(name: str) -> list[list[Any]]:
            return [a for a in elite_actions(workdir) if a[1] == name]

        # Next: the host's double click and three others' presses at once.  Next's id names the
        # game's move count, so the host's second press is "already done": one phase, not two.
        done, refused = await round_of("next", ["bob", "carol", "bob", "dave", "erin"])
        others = [ix for ix in refused if ix.user_id != uid(fd, "bob")]
        (second,) = [ix for ix in refused if ix.user_id == uid(fd, "bob")]
        assert done == ["bob"] and len(others) == 3
        assert all("only the host" in text for text in [(await answer(fd, ix)).text for ix in others])
        assert (await answer(fd, second)).text == already
        assert len(steps("next")) == 1
        assert "Event Phase" in fd.world.messages_by_id[status.id].text  # round 1's first phase only
        while "Action Phase" not in fd.world.messages_by_id[status.id].text:
            done, _ = await round_of("next", ["bob"])
            assert done == ["bob"]
        nexts = len(steps("next"))
        started, _ = await round_of("start", ["bob"])
        assert started == ["bob"]

        # ±15 s: three of the host's and two others' at once; the stored adjustments sum up.
        users = ["bob", "carol", "bob", "erin", "bob"]
        plus, plus_refused = await round_of("plus", users)
        minus, minus_refused = await round_of("minus", ["bob", "dave"])
        assert plus == ["bob"] * 3 and minus == ["bob"] and len(plus_refused) == 2 and len(minus_refused) == 1
        adjusts = steps("adjust")
        assert [a[2] for a in adjusts].count(15) == 3 and [a[2] for a in adjusts].count(-15) == 1

        # Pause: three of the host's presses at once pause the clock once (a toggle pressed three
        # times used to pause, resume and pause); the others' two are refused.
        paused, refused = await round_of("pause", ["bob", "bob", "carol", "bob", "dave"])
        assert paused == ["bob"] and len(refused) == 4
        said = [(await answer(fd, ix)).text for ix in refused]
        assert said.count(already) == 2 and sum("only the host" in x for x in said) == 2, said
        toggles = [a[1] for a in elite_actions(workdir) if a[1] in ("pause", "resume")]
        assert toggles == ["pause"]
        assert "(paused)" in fd.world.messages_by_id[status.id].text
        assert len(steps("next")) == nexts  # nothing else was stored for the refused presses

        # Stop pressed twice by the host and once by another at once: one ending, one logbook row.
        stopped, refused = await round_of("stop", ["bob", "carol", "bob"])
        assert stopped == ["bob"] and len(refused) == 2
        # The ending is stored after the answer (it speaks and posts first): wait for it.
        await until(lambda: elite_games(workdir) == [], "the stopped ELITE game to leave the store")
        assert query(workdir, "SELECT COUNT(*) FROM elite_results") == [(1,)]

        # Two members run /elite start at once and pick their heroes at the same instant: one game
        # begins (its host is the one told so), the other wizard hears the channel is taken.
        wizards = await asyncio.gather(
            *(fd.slash("elite start", ELITE, user=u, channel="bridge") for u in ("carol", "dave"))
        )
        pickers = [await answer(fd, ix) for ix in wizards]
        picks = await press_at_once(
            fd, [(p, p.custom_ids[0], u, ["kinje", "kara"]) for p, u in zip(pickers, ("carol", "dave"), strict=True)]
        )
        said = [(await answer(fd, ix)).text for ix in picks]
        began = [u for u, text in zip(("carol", "dave"), said, strict=True) if t("en", "elite.ui.setup_posted") in text]
        assert len(began) == 1 and sum(t("en", "elite.ui.running_here") in x for x in said) == 1, said
        assert [host for host, _ in elite_games(workdir)] == [uid(fd, began[0])]

        def controls() -> list[Any]:  # status messages with buttons (the stopped game's has none)
            return [m for m in public(fd) if any(c.startswith("elite:next:") for c in m.custom_ids)]

        await fd.wait_for(controls, WAIT, "the new game's status message")
        assert len(controls()) == 1 and controls()[0].id != status.id

        # Each table game: four members press Join at once on a lobby of at most four seats.
        for game, channel_name in zip(tables, ("general", "mission-log"), strict=False):
            await table_join_at_once(fd, workdir, game, channel_name)
        assert query(workdir, "SELECT COUNT(*) FROM elite_results") == [(1,)]  # still one ending
        assert_clean(fd)


async def table_join_at_once(fd: Any, workdir: Path, game: str, channel: str) -> None:
    """alice opens the game's lobby; bob, carol, dave and erin press Join at once.  Every applied
    press is a stored seat (member ids, host first), every refusal is the table's, none twice."""
    opened = await fd.slash(f"{game} start", TABLE_GAMES[game], user="alice", channel=channel)
    lobby = await answer(fd, opened, lambda m: any(c.startswith(f"gm:{game}:") and ":join:" in c for c in m.custom_ids))
    join = next(c for c in lobby.custom_ids if c.startswith(f"gm:{game}:") and ":join:" in c)
    sid = join.split(":")[2]
    joiners = ["bob", "carol", "dave", "erin"]
    seated, refused = await sort_out(fd, joiners, await press_at_once(fd, [(lobby, join, u, None) for u in joiners]))
    # Both games seat at most four: three of the four presses sit down, the fourth hears "full".
    assert len(seated) == 3 and len(refused) == 1, (game, seated)
    assert "full" in (await answer(fd, refused[0])).text
    (state_json,) = query(workdir, "SELECT state FROM game_sessions WHERE id = ?", sid)[0]
    seats = json.loads(state_json)["seats"]
    assert seats[0] == uid(fd, "alice")
    assert sorted(seats[1:]) == sorted(uid(fd, u) for u in seated), (game, seated, seats)
    assert len(set(seats)) == len(seats)

    # The host double-clicks Begin while a seated member presses it too: the game begins once.
    begin = next(c for c in lobby.custom_ids if c.startswith(f"gm:{game}:") and ":begin:" in c)
    lobby = fd.world.messages_by_id[lobby.id]
    begun, refused = await sort_out(
        fd,
        ["alice", "alice", seated[0]],
        await press_at_once(fd, [(lobby, begin, u, None) for u in ("alice", "alice", seated[0])]),
    )
    assert begun == ["alice"] and len(refused) == 2, (game, begun, [ix.messages for ix in refused])
    assert query(workdir, "SELECT status FROM game_sessions WHERE id = ?", sid) == [("running",)]

    # The whole table opens its private panels at once: each member gets their own, nothing is written.
    opener, move = PANEL[game]

    def board() -> Any:
        found = [
            m for m in fd.messages(channel) if any(c.startswith(f"gm:{game}:{sid}:{opener}:") for c in m.custom_ids)
        ]
        return found[-1] if found else None

    bridge = await fd.wait_for(board, WAIT, f"the {game} board with its {opener} button")
    table = ["alice", *seated]
    open_id = next(c for c in bridge.custom_ids if f":{opener}:" in c)
    panels = [await answer(fd, ix) for ix in await press_at_once(fd, [(bridge, open_id, u, None) for u in table])]
    assert all(p.ephemeral and p.visible_to == uid(fd, u) for p, u in zip(panels, table, strict=True))

    # Whoever has a move double-clicks it.  Legion's Depart happens once (the second press is told
    # why not); Escape's arrow moves one cell per press, so both may apply.  Either way every
    # applied press is a stored change (the document's version; the game may write more beside).
    movers = [
        (u, p, c)
        for u, p in zip(table, panels, strict=True)
        for c in p.custom_ids
        if f":{move}:" in c and not (p.find_component(c) or {}).get("disabled")
    ]
    assert movers, f"nobody in {game} has a move"
    user, panel, button = movers[0]
    (version,) = query(workdir, "SELECT version FROM game_sessions WHERE id = ?", sid)[0]
    done, refused = await sort_out(fd, [user, user], await press_at_once(fd, [(panel, button, user, None)] * 2))
    (after,) = query(workdir, "SELECT version FROM game_sessions WHERE id = ?", sid)[0]
    assert done and after - version >= len(done), (game, button, done, version, after)
    if game == "legion":
        assert len(done) == 1 and len(refused) == 1, (button, done)
