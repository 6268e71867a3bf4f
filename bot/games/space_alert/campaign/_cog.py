"""`/campaign start|status|end`, the vote buttons and the repair menu (rulebook §6).

One running campaign per channel, stored in the `campaigns` table through the game's repository
(storage.py: `Campaigns.save` / `Campaigns.running`; the row's state is {"session", "members", "host"}), so it
survives restarts; when it ends the row keeps its status, mission count, total and crew for the
campaign leaderboard.  Flights stay the Mission cog's: when the crew has voted, the campaign
announces the recording and difficulties; the flight code asks `flight_handoff(channel)` for the
campaign id and the `carried` block to put into its GAME.json, and calls `flight_follow_ups(record,
result)` inside the transaction that finishes the flight; the campaign takes it from there
(repairs, next vote, score), its step committing with the finish and its posts queued behind
the flight's result.  Texts follow the server's language (the catalogue's `campaign.`
keys, read through _text.py).

Every change of a campaign (a vote, a repair, the clock, a flown mission, the end) is one unit of
work through the repository (`Campaigns.change`: load, pure change, save with a version check, retry),
so three members voting at the same instant are three stored votes.  Voters and crew are member
ids (as strings in the engine's session); names live in `members` and are only rendered.  Who
may do what is declared once below (`PERMISSIONS`) and checked by the platform.

What a change makes due in the channel (the clock closing a vote or the repairs, the next
mission's announcement, a scheduled campaign's first vote) is staged in the outbox in the change's
own transaction and sent after it commits (posts.py): a crash in between loses none of it, and a
restart posts none of it twice.  Answers to an interaction (the edited vote message, an ephemeral
reply) are not staged: they belong to that interaction.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.games.space_alert.campaign._render import (
    ID_TEMPLATE,
    KIND,
    SELECT_TEMPLATE,
    repair_embed,
    repair_from_value,
    repair_view,
    score_embed,
    vote_embed,
    vote_view,
)
from bot.games.space_alert.campaign._text import tx
from bot.games.space_alert.campaign.handoff import (
    CAMPAIGN_OPTION,
    CampaignDue,
    after_result,
    follow_up,
    send_follow_up,
)
from bot.games.space_alert.campaign.posts import Staged, queue_of
from bot.games.space_alert.campaign.storage import CampaignRecord, Campaigns
from bot.platform.command_line import bare, command_line
from bot.platform.components import handles
from bot.platform.hosting.gate import may_start, serves
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.permissions import Seats, actor_of, answer_refusal, decide, refusal
from bot.platform.storage.base import ChannelBusy, StaleWrite
from bot.platform.storage.platform import ScheduleRecord
from bot.platform.text import code_inner, user_text
from engine.campaign.flow import Campaign
from engine.campaign.session import CampaignSession, Due, Ended, FlyNext, SessionError
from engine.model import Result

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
KEYS_BY_ID = "ids"  # state["keys"]: the engine's crew, votes and repairs are keyed by member id


def seats_of(record: CampaignRecord) -> Seats:
    return Seats.of(int(record.state.get("host", 0) or 0), (int(uid) for uid in record.state.get("members", {})))


def keyed_by_id(state: dict[str, Any]) -> dict[str, Any]:
    """A stored campaign document with its crew, votes, repairs and knocked-out members keyed by
    member id.  Campaigns stored before keyed them by display name: those names are mapped back
    through `members` (two members of one name were one voter then; they are one id now too)."""
    if state.get("keys") == KEYS_BY_ID:
        return state
    ids = {str(name): str(uid) for uid, name in state.get("members", {}).items()}
    session = state.get("session", {})

    def key(name: Any) -> str:
        return ids.get(str(name), str(name))

    campaign = session.get("campaign", {})
    campaign["crew"] = list(dict.fromkeys(key(n) for n in campaign.get("crew", [])))
    session["votes"] = {kind: {key(m): c for m, c in v.items()} for kind, v in session.get("votes", {}).items()}
    session["repairs"] = {key(m): r for m, r in session.get("repairs", {}).items()}
    session["knocked_out"] = [key(m) for m in session.get("knocked_out", [])]
    state["keys"] = KEYS_BY_ID
    return state


def put_session(record: CampaignRecord, session: CampaignSession) -> None:
    """Write the session into the record (pure): a finished one gets its status, total and crew."""
    record.state["session"] = session.to_dict()
    record.state["keys"] = KEYS_BY_ID
    record.missions = session.campaign.flown
    if not record.crew:  # a campaign moved from the settings stopgap: seats from its members
        record.crew = [(int(uid), name) for uid, name in record.state.get("members", {}).items()]
    if session.phase == "finished":
        score = session.campaign.score() if session.campaign.lines else None
        if score is None:
            record.status = "abandoned"
        elif score.lost:
            record.status, record.destroyed_by = "lost", score.destroyed_by
        else:
            record.status, record.total = "finished", score.total


@handles(KIND)
class CampaignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ID_TEMPLATE):
    def __init__(self, custom_id: str, *, label: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CampaignButton:
        return cls(match.string, label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_press(interaction, self.custom_id, [])


@handles(KIND)
class CampaignSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(
        self, custom_id: str, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder=placeholder))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CampaignSelect:
        return cls(match.string, list(getattr(item, "options", [])) or None, getattr(item, "placeholder", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await _cog(interaction).on_press(interaction, self.custom_id, values)


def _cog(interaction: discord.Interaction) -> CampaignCog:
    client: Any = interaction.client
    cog = client.get_cog("Campaign")
    assert isinstance(cog, CampaignCog)
    return cog


class CampaignCog(commands.Cog, name="Campaign"):
    campaign = app_commands.Group(name="campaign", description="Exploration campaigns", guild_only=True)

    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.run_timers:
            self.timer.start()

    async def cog_unload(self) -> None:
        self.timer.cancel()

    @tasks.loop(seconds=10)
    async def timer(self) -> None:
        with contextlib.suppress(Exception):  # a failed tick is retried on the next one
            await self.tick_all()

    # --- storage -----------------------------------------------------------------------------
    @property
    def campaigns(self) -> Campaigns:
        """The campaigns' repository over the bot's storage (read each time: tests swap it)."""
        return Campaigns(self.bot.storage)

    async def lang(self, guild_id: int | None) -> str:
        return await server_language(self.bot.storage, guild_id, self.bot.settings.default_language)

    async def load(self, channel_id: int) -> CampaignRecord | None:
        """The channel's running campaign (a read: changes go through `change`)."""
        record = await self.campaigns.running(channel_id)
        if record is not None:
            keyed_by_id(record.state)
        return record

    async def change(
        self, channel_id: int, step: Callable[[CampaignRecord, CampaignSession], bool]
    ) -> CampaignRecord | None:
        """One unit of work on the channel's running campaign: `step(record, session)` changes the
        session (pure: it runs again on a fresh load when another writer got there first) and
        says whether anything changed; the session is then saved with a version check."""

        def change(record: CampaignRecord) -> bool:
            keyed_by_id(record.state)
            session = CampaignSession.from_dict(record.state["session"])
            if not step(record, session):
                return False
            put_session(record, session)
            return True

        return await self.campaigns.change(channel_id, change)

    async def change_posting(
        self,
        channel_id: int,
        step: Callable[[CampaignRecord, CampaignSession], bool],
        posts: Callable[[CampaignRecord], Awaitable[list[dict[str, Any]]]],
    ) -> tuple[CampaignRecord | None, Staged | None]:
        """`change`, with the posts it makes due staged in the outbox in the same transaction:
        `posts(record)` (after the step, in the transaction) says what to post (`follow_up`
        payloads; none when the step changed nothing).  The caller sends them once it has
        answered its interaction, if any (`Staged.send`); a crash before that loses nothing."""
        staged: Staged | None = None
        async with self.bot.storage.transaction():
            record = await self.change(channel_id, step)
            if record is not None:
                staged = Staged(self.bot, queue_of(record.id), record.guild_id)
                for payload in await posts(record):
                    await staged.stage(payload)
        return record, staged

    async def due_flight(self, channel_id: int) -> CampaignDue | None:
        """The campaign mission about to be flown in this channel (its recording, difficulties
        and `carried` block), or None when no campaign waits for a flight here.  The flight puts
        the block in its GAME.json and the id on its logbook entry."""
        record = await self.load(channel_id)
        if record is None or record.state["session"]["phase"] != "flying":
            return None
        session = CampaignSession.from_dict(record.state["session"])
        due = session.due()
        return CampaignDue(record.id, session.carried_block(), due) if due is not None else None

    async def flight_handoff(self, channel_id: int) -> tuple[str, dict[str, Any]] | None:
        """(campaign id, `carried` block) of the campaign mission due in this channel, or None."""
        found = await self.due_flight(channel_id)
        return (found.campaign_id, found.carried) if found is not None else None

    async def carried_for(self, guild_id: int, channel_id: int) -> dict[str, Any] | None:
        """The `carried` block for the campaign mission about to be flown in this channel."""
        handoff = await self.flight_handoff(channel_id)
        return handoff[1] if handoff else None

    # --- commands ------------------------------------------------------------------------------
    @campaign.command(name="start", description="Start an exploration campaign (up to three missions)")
    @app_commands.describe(p2="Crew member", p3="Crew member", p4="Crew member", p5="Crew member")
    async def start(
        self,
        interaction: discord.Interaction,
        p2: discord.Member | None = None,
        p3: discord.Member | None = None,
        p4: discord.Member | None = None,
        p5: discord.Member | None = None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        lang = await self.lang(guild_id)
        if not await may_start(self.bot.storage, interaction, "campaign.start", lang):
            return
        people = [interaction.user, *(m for m in (p2, p3, p4, p5) if m is not None)]
        seats = [(p.id, user_text(p.display_name)) for p in people]
        opened = await self.open(str(interaction.id), guild_id, channel_id, seats, seed=interaction.id)
        if opened is None:
            await interaction.response.send_message(tx(lang, "already"), ephemeral=True)
            return
        embed, view = opened
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)

    async def open(
        self,
        campaign_id: str,
        guild_id: int,
        channel_id: int,
        seats: list[tuple[int, str]],
        *,
        seed: int,
        staged: Staged | None = None,
    ) -> tuple[discord.Embed, discord.ui.View] | None:
        """Store a new campaign for `seats` (the host first) and return its first vote message;
        None when the channel already runs one (the store's unique index says so: a new campaign
        is an insert, never an upsert, so a repeated open cannot reset a running one).
        `/campaign start` and a scheduled campaign night both open campaigns here; with `staged`
        (no interaction to answer) the vote message is staged with the insert, to be sent after."""
        lang = await self.lang(guild_id)
        members = {str(uid): name for uid, name in seats}
        crew = list(members)  # member ids: two members called "Ann" are two voters
        session = CampaignSession.start(Campaign(seed=seed % 2**31, crew=crew), now=self.bot.clock())
        doc: dict[str, Any] = {"members": members, "host": seats[0][0], "keys": KEYS_BY_ID}
        record = CampaignRecord(campaign_id, guild_id, channel_id, doc, crew=[(int(u), n) for u, n in members.items()])
        put_session(record, session)
        embed = vote_embed(lang, session)
        try:
            async with self.bot.storage.transaction():  # a busy channel rolls it all back
                await self.campaigns.save(record)
                if staged is not None:
                    await staged.stage(follow_up(channel_id, lang, embed=embed, view="Campaign"))
        except ChannelBusy:
            return None
        return embed, vote_view(lang, session, channel_id, CampaignButton)

    async def open_scheduled(self, schedule: ScheduleRecord, channel: Any) -> None:
        """A scheduled campaign night's time has come: the campaign opens for its host, as if the
        host had run `/campaign start` in the channel with the crew named when it was scheduled (keyed by
        the row, so the scheduler's retry after a crash finds it open rather than opening another)."""
        guild = getattr(channel, "guild", None)
        host = guild.get_member(schedule.host_id) if guild is not None else None
        name = user_text(host.display_name) if host is not None else str(schedule.host_id)
        lang = await self.lang(schedule.guild_id)
        seats = [(schedule.host_id, name)]
        for entry in schedule.options.get("crew") or []:  # named when it was scheduled
            member_id, member_name = int(entry[0]), str(entry[1])
            member = guild.get_member(member_id) if guild is not None else None
            seats.append((member_id, user_text(member.display_name) if member is not None else member_name))
        campaign_id = f"schedule-{schedule.id}"
        staged = Staged(self.bot, queue_of(campaign_id), schedule.guild_id)
        opened = await self.open(
            campaign_id,
            schedule.guild_id,
            schedule.channel_id,
            seats,
            seed=schedule.id or int(schedule.at),
            staged=staged,
        )
        if opened is None:  # nothing changed: nothing staged, a plain answer
            if not schedule.retry:  # (a retry after a crash finds its own campaign open: quiet)
                await channel.send(tx(lang, "already"), allowed_mentions=NO_PINGS)
            return
        await staged.send()  # the first vote, staged with the campaign

    @campaign.command(name="status", description="The campaign of this channel so far")
    async def status(self, interaction: discord.Interaction) -> None:
        lang = await self.lang(interaction.guild_id)
        record = await self.campaigns.latest(interaction.channel_id or 0)
        if record is None:
            await interaction.response.send_message(tx(lang, "none"), ephemeral=True)
            return
        session = CampaignSession.from_dict(keyed_by_id(record.state)["session"])
        if session.phase == "finished" and not session.campaign.lines:
            await interaction.response.send_message(tx(lang, "ended_early"), ephemeral=True)
            return
        if session.phase == "finished":
            embed = score_embed(lang, session, session.campaign.score())
        elif session.phase == "repair":
            embed = repair_embed(lang, session, record.state.get("members", {}))
        else:
            embed = vote_embed(lang, session)
        due = session.due() if session.phase == "flying" else None
        if due is not None:  # the crew has voted: what to fly now, and how to start it
            embed.description = t(lang, "evening.campaign.status_due", n=due.number, command=self.start_line(due))
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)

    @campaign.command(name="end", description="End the campaign after the missions flown so far")
    async def end(self, interaction: discord.Interaction) -> None:
        lang = await self.lang(interaction.guild_id)
        actor = actor_of(interaction)
        refused: str | None = None

        def end(record: CampaignRecord, session: CampaignSession) -> bool:
            nonlocal refused
            refused = decide("campaign.end", actor, seats_of(record))
            if refused is not None:
                return False
            session.campaign.end()
            session.phase, session.deadline = "finished", None
            return True

        try:
            record = await self.change(interaction.channel_id or 0, end)
        except StaleWrite:
            await interaction.response.send_message(t(lang, "error.busy"), ephemeral=True)
            return
        if record is None:
            await interaction.response.send_message(await self._nothing_running(lang, interaction), ephemeral=True)
            return
        if refused is not None:
            await answer_refusal(interaction, refusal(lang, refused))
            return
        session = CampaignSession.from_dict(record.state["session"])
        if session.campaign.lines:
            await interaction.response.send_message(embed=score_embed(lang, session, session.campaign.score()))
        else:
            await interaction.response.send_message(tx(lang, "ended_early"))

    async def _nothing_running(self, lang: str, interaction: discord.Interaction) -> str:
        """Why there is nothing to end: no campaign at all, or the last one is over (and how)."""
        latest = await self.campaigns.latest(interaction.channel_id or 0)
        start = bare(self.bot.tree, "campaign start")
        if latest is None or latest.status not in ("lost", "finished"):
            return t(lang, "evening.campaign.none_to_end", start=start)
        session = CampaignSession.from_dict(latest.state["session"])
        if latest.status == "lost":
            line = session.campaign.lines[-1] if session.campaign.lines else None
            return t(
                lang,
                "evening.campaign.already_lost",
                n=session.campaign.flown,
                mission=line.mission if line is not None else "?",
                start=start,
            )
        return t(lang, "evening.campaign.already_finished", total=latest.total, start=start)

    @campaign.command(
        name="change", description="Fly another recording as the campaign's next mission (host; recorded)"
    )
    @app_commands.describe(mission="The official mission to fly instead of the drawn one (S1-1 … S2-8)")
    async def change_mission(self, interaction: discord.Interaction, mission: str) -> None:
        lang = await self.lang(interaction.guild_id)
        from engine.flight.timeline import official_ids

        wanted = {m.upper(): m for m in official_ids()}.get(mission.strip().upper())
        actor = actor_of(interaction)
        refused: str | None = None
        due: Due | None = None

        def change(record: CampaignRecord, session: CampaignSession) -> bool:
            nonlocal refused, due
            refused, due = None, None
            if session.due() is None:
                return False
            refused = decide("campaign.change", actor, seats_of(record))
            if refused is not None or wanted is None:
                return False
            due = session.change_mission(wanted)
            return True

        try:
            record = await self.change(interaction.channel_id or 0, change)
        except StaleWrite:
            await interaction.response.send_message(t(lang, "error.busy"), ephemeral=True)
            return
        if record is None or (refused is None and due is None and wanted is not None):
            await interaction.response.send_message(t(lang, "evening.campaign.nothing_due"), ephemeral=True)
            return
        if refused is not None:
            await answer_refusal(interaction, refusal(lang, refused))
            return
        if wanted is None or due is None:
            await interaction.response.send_message(
                t(lang, "error.unknown_mission", mission=code_inner(mission)), ephemeral=True
            )
            return
        key = "evening.campaign.changed" if due.mission != due.drawn else "evening.campaign.changed_back"
        await interaction.response.send_message(
            t(lang, key, n=due.number, mission=due.mission, drawn=due.drawn, command=self.start_line(due)),
            allowed_mentions=NO_PINGS,
        )

    def start_line(self, due: Due) -> str:
        """The `/mission start` that flies the due campaign mission, built from the command tree."""
        return command_line(
            self.bot.tree,
            "mission start",
            mission=due.mission,
            normal_threats=due.common,
            serious_threats=due.serious,
        )

    # --- presses -----------------------------------------------------------------------------
    async def on_press(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        match = re.fullmatch(ID_TEMPLATE, custom_id) or re.fullmatch(SELECT_TEMPLATE, custom_id)
        lang = await self.lang(interaction.guild_id)
        if match is None:
            await interaction.response.send_message(tx(lang, "over"), ephemeral=True)
            return
        channel_id = int(match["channel"])
        action = "campaign.repair" if match["what"] == "repairmenu" else "campaign.vote"
        actor = actor_of(interaction)
        voter = str(interaction.user.id)
        now = self.bot.clock()
        refused: str | None = None
        not_counted: str | None = None
        step: FlyNext | Ended | None = None

        def press(record: CampaignRecord, session: CampaignSession) -> bool:
            """The press as a pure change of the stored session (run again on a stale version)."""
            nonlocal refused, not_counted, step
            refused, not_counted, step = decide(action, actor, seats_of(record)), None, None
            if refused is not None:
                return False
            try:
                if match["what"] == "repairmenu":
                    session.choose_repair(voter, repair_from_value(values[0] if values else ""))
                else:
                    session.vote(voter, match["what"], match["value"])
            except SessionError as exc:
                not_counted = str(exc)
                return False
            step = session.tick(now)
            return True

        async def posts(record: CampaignRecord) -> list[dict[str, Any]]:
            """The vote closed by this press: the next mission's announcement, in its transaction."""
            if not isinstance(step, FlyNext):
                return []
            announcement = self._announcement(lang, CampaignSession.from_dict(record.state["session"]))
            return [follow_up(channel_id, lang, content=announcement)] if announcement else []

        try:
            record, staged = await self.change_posting(channel_id, press, posts)
        except StaleWrite:  # the campaign kept changing under every attempt: ask for another press
            await interaction.response.send_message(t(lang, "error.busy"), ephemeral=True)
            return
        if record is None:
            await interaction.response.send_message(tx(lang, "over"), ephemeral=True)
            return
        if refused is not None:
            await answer_refusal(interaction, refusal(lang, refused))
            return
        if not_counted is not None:
            await interaction.response.send_message(tx(lang, "not_counted", reason=not_counted), ephemeral=True)
            return
        session = CampaignSession.from_dict(record.state["session"])
        embed, view = self._message(lang, record, session, channel_id, step)
        await interaction.response.edit_message(embed=embed, view=view)
        if staged is not None:
            await staged.send()  # after the answer: the interaction's 3 s are not spent on it

    def _message(
        self,
        lang: str,
        record: CampaignRecord,
        session: CampaignSession,
        channel_id: int,
        step: FlyNext | Ended | None,
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        if isinstance(step, Ended):
            return score_embed(lang, session, session.campaign.score()), None
        if session.phase == "repair":
            names = record.state.get("members", {})
            return repair_embed(lang, session, names), repair_view(lang, session, channel_id, CampaignSelect)
        if session.phase == "vote":  # still voting, or the repairs closed and the next vote opens
            return vote_embed(lang, session), vote_view(lang, session, channel_id, CampaignButton)
        embed = vote_embed(lang, session)
        embed.description = tx(lang, "vote.done")
        return embed, None

    def _announcement(self, lang: str, session: CampaignSession) -> str | None:
        """The due mission's announcement: what to fly and the command that flies it (None when
        no mission is due)."""
        due = session.due()
        if due is None:
            return None
        return t(
            lang,
            "evening.campaign.announce",
            n=due.number,
            mission=due.mission,
            common=t(lang, f"difficulty.{due.common}"),
            serious=t(lang, f"difficulty.{due.serious}"),
            command=self.start_line(due),
            change=command_line(self.bot.tree, "campaign change", mission="…"),
        )

    # --- results and the clock -----------------------------------------------------------------
    async def flight_follow_ups(self, record: Any, result: Result) -> list[dict[str, Any]]:
        """A flight ended; if it was this channel's campaign mission, carry on with the campaign.
        Called inside the flight's finishing transaction (`handoff`): the step commits with the
        finished flight, and its posts (the score or the next step, and the loss) are returned as
        outbox payloads that go out after the flight's result, exactly once."""
        now = self.bot.clock()
        mission = str(record.options.get("mission", "?"))
        flown = {str(m.name): str(m.user_id) for m in getattr(record, "crew", None) or []}
        step: Ended | None = None
        applied = False

        def resolved(stored: CampaignRecord, session: CampaignSession) -> bool:
            nonlocal step, applied
            # another flight in this channel leaves the campaign waiting for its own mission
            applied = session.phase == "flying" and record.options.get(CAMPAIGN_OPTION) == stored.id
            if not applied:
                return False
            # the flight names its players; the campaign keys them by member id
            ids = {**{str(n): str(u) for u, n in stored.state.get("members", {}).items()}, **flown}
            knocked = [ids.get(name, name) for name in result.knocked_out]
            step = session.mission_flown(result.model_copy(update={"knocked_out": knocked}), mission, now)
            return True

        stored = await self.change(record.channel_id, resolved)
        if stored is None or not applied:
            return []
        lang = await self.lang(stored.guild_id)
        session = CampaignSession.from_dict(stored.state["session"])
        embed, view = self._message(lang, stored, session, record.channel_id, step)
        posts = [follow_up(record.channel_id, lang, embed=embed, view="Campaign" if view is not None else "")]
        if isinstance(step, Ended) and step.reason == "lost":
            start = bare(self.bot.tree, "campaign start")
            lost = t(lang, "evening.campaign.lost", n=session.campaign.flown, start=start)
            posts.append(follow_up(record.channel_id, lang, content=lost))
        return posts

    async def follow_up_view(self, channel_id: int, lang: str) -> discord.ui.View | None:
        """The buttons of a follow-up post as the campaign stands when it goes out (the vote's or
        the repairs'; none once the step is over)."""
        stored = await self.load(channel_id)
        if stored is None:
            return None
        session = CampaignSession.from_dict(stored.state["session"])
        if session.phase == "repair":
            return repair_view(lang, session, channel_id, CampaignSelect)
        if session.phase == "vote":
            return vote_view(lang, session, channel_id, CampaignButton)
        return None

    async def on_flight_resolved(self, record: Any, result: Result) -> None:
        """The campaign's follow-ups of a flight resolved outside a flight's finish (tests, tools):
        the step as one unit of work at once, its posts after the flight's result."""
        async with self.bot.storage.transaction():
            posts = await self.flight_follow_ups(record, result)
        channel: Any = self.bot.get_channel(record.channel_id)
        if not posts or channel is None:
            return
        await after_result(self.bot, record)
        for payload in posts:
            await send_follow_up(self.bot, channel, payload)

    async def tick_all(self) -> None:
        """Close votes and repair steps whose time is up, in every running campaign."""
        now = self.bot.clock()
        for record in await self.campaigns.all_running():
            if serves(self.bot, record.guild_id):  # several shards: the owner of the server ticks it
                await self.tick_channel(record.guild_id, record.channel_id, now)

    async def tick_channel(self, guild_id: int, channel_id: int, now: float) -> None:
        """The campaign's clock in one channel: a vote or a repair step whose time is up closes,
        and what that makes due (the vote's outcome, the next mission's announcement, the next
        vote, the final score) is staged with the change and sent after it commits."""
        step: FlyNext | Ended | None = None
        moved = False

        def tick(record: CampaignRecord, session: CampaignSession) -> bool:
            nonlocal step, moved
            before = session.phase
            step = session.tick(now)
            moved = session.phase != before or step is not None
            return moved

        async def posts(record: CampaignRecord) -> list[dict[str, Any]]:
            if not moved:
                return []
            lang = await self.lang(guild_id)
            session = CampaignSession.from_dict(record.state["session"])
            embed, view = self._message(lang, record, session, channel_id, step)
            made = [follow_up(channel_id, lang, embed=embed, view="Campaign" if view is not None else "")]
            announcement = self._announcement(lang, session) if isinstance(step, FlyNext) else None
            if announcement:
                made.append(follow_up(channel_id, lang, content=announcement))
            return made

        _record, staged = await self.change_posting(channel_id, tick, posts)
        if staged is not None:
            await staged.send()
