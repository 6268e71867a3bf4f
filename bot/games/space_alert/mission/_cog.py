"""Slash commands and the component router of a flight: lobby, start, status, abort.

Every handler has the same shape, so none forgets a step: parse the custom id, hand the store
one pure change (check who may do this, change the record, say what to log), which it loads,
applies and saves as one unit of work, then answer from what the change found.
The game itself (deals, placements, the clock-driven round, resolution) is engine.flight's; the
live-flight part of the routing sits in `_flights.FlightService`.
"""

from __future__ import annotations

import logging
import random
import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.space_alert.campaign.handoff import CampaignDue, campaign_due
from bot.games.space_alert.campaign.school import flight_lesson_embed, prepare_school_flight
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission._flights import FlightService
from bot.games.space_alert.mission._missions import RANDOM, MissionCatalog
from bot.games.space_alert.mission._respond import Reply
from bot.games.space_alert.mission.components import FlightButton, FlightSelect, view_of
from bot.games.space_alert.mission.render import ROLE_EMOJI, closed_embed, lobby_embed
from bot.games.space_alert.mission.storage import CrewMember, FlightRecord
from bot.games.space_alert.storage import CustomMissions
from bot.platform import perms
from bot.platform.command_line import command_line
from bot.platform.hosting._text import tx as hosting_text
from bot.platform.hosting.gate import FlightGate, flight_gate
from bot.platform.hosting.scheduler import schedule_flight
from bot.platform.hosting.server_settings import ServerSettings, custom_refusal, load_settings, server_language
from bot.platform.i18n import t
from bot.platform.permissions import Seats, actor_of, decide
from bot.platform.settings import LANGUAGES
from bot.platform.storage import ChannelBusy, StaleWrite
from bot.platform.storage.platform import ScheduleRecord
from bot.platform.text import code_inner, code_text, plain_text, user_text
from engine.documents import MAX_TIMELINE_BYTES
from engine.flight import lobby
from engine.flight.lobby import Seat
from engine.school.lessons import LESSONS

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

DIFFICULTIES = ("white", "yellow", "mixed")
DIFFICULTY_CHOICES = [app_commands.Choice(name=d, value=d) for d in DIFFICULTIES]
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="Русский", value="ru"),
    app_commands.Choice(name="Čeština", value="cs"),
    app_commands.Choice(name="Slovenčina", value="sk"),
]
VOICE_CHOICES = [app_commands.Choice(name="on", value="on"), app_commands.Choice(name="off", value="off")]
# the generator's difficulty presets (the official groups: training, simulations, missions)
PRESETS = ("test_run", "simulation", "advanced_simulation", "mission")
PRESET_CHOICES = [app_commands.Choice(name=p.replace("_", " "), value=p) for p in PRESETS]
MAX_MISSION_FILE = MAX_TIMELINE_BYTES  # the engine's own cap, checked here before downloading


def new_flight_id() -> str:
    return secrets.token_hex(4)


def custom_limits(settings: ServerSettings, existing: int, size_bytes: int) -> str | None:
    """The server's refusal of one more custom mission (`custom_max_count`, `custom_max_kb` in
    /settings), in its language, or None; `existing` counts the server's other missions (replacing
    one of the same id adds none).  Checked inside the unit of work that stores it."""
    why = custom_refusal(settings, existing, size_bytes)
    if why is None:
        return None
    size = -(-size_bytes // 1024)  # rounded up, as the limit is checked on bytes
    limit = settings.custom_max_count if why == "count" else settings.custom_max_kb
    return t(settings.language, f"custom.refused.{why}", limit=limit, existing=existing, size=size)


class MissionCog(commands.Cog, name="Mission"):
    """`/mission start|status|abort` and every lobby and flight button."""

    mission = app_commands.Group(
        name="mission", description="Fly a Space Alert mission in this channel", guild_only=True
    )

    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot
        self.catalog = MissionCatalog(bot.settings.scenario_dirs, bot.storage)
        self.flights = FlightService(bot, self.catalog)

    async def cog_load(self) -> None:
        self.catalog.file_missions()  # validate SCENARIO_DIRS at start-up (bad files logged, skipped)
        await self.flights.resume_all()

    async def cog_unload(self) -> None:
        await self.flights.close()

    # -- commands ---------------------------------------------------------------------------------
    @mission.command(name="start", description="Open a lobby for a mission in this channel")
    @app_commands.describe(
        mission="Official mission (S1-1 … S2-8), 'random', or one of this server's custom missions",
        normal_threats="Difficulty of the normal threats",
        serious_threats="Difficulty of the serious threats",
        language="Language of the intercom and the captain's log",
        voice="Speak the intercom in your voice channel",
        seed="Seed for the shuffles and for a random mission (optional)",
        preset="Difficulty of a random mission (default: mission)",
    )
    @app_commands.choices(
        normal_threats=DIFFICULTY_CHOICES,
        serious_threats=DIFFICULTY_CHOICES,
        language=LANGUAGE_CHOICES,
        voice=VOICE_CHOICES,
        preset=PRESET_CHOICES,
    )
    async def mission_start(
        self,
        interaction: discord.Interaction,
        mission: str,
        normal_threats: str | None = None,
        serious_threats: str | None = None,
        language: str | None = None,
        voice: str = "on",
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
        preset: str = "mission",
    ) -> None:
        checked = await self._may_start(interaction, language, "mission.start")
        if checked is None:
            return
        lang, gate = checked
        assert interaction.guild_id is not None
        mission = mission.strip()
        known = await self.catalog.exists(interaction.guild_id, mission)
        if not known:
            await interaction.response.send_message(
                t(lang, "error.unknown_mission", mission=code_inner(mission)), ephemeral=True
            )
            return
        due = await campaign_due(self.bot, interaction.channel_id or 0)
        if due is not None:  # the campaign's mission, at the difficulties the crew voted for
            normal_threats = normal_threats or due.due.common
            serious_threats = serious_threats or due.due.serious
        normal_threats, serious_threats = normal_threats or "white", serious_threats or "white"
        if normal_threats not in DIFFICULTIES or serious_threats not in DIFFICULTIES:
            await interaction.response.send_message(t(lang, "error.difficulty"), ephemeral=True)
            return
        if due is not None and not due.matches(mission, normal_threats, serious_threats):
            await interaction.response.send_message(self._not_the_campaign_flight(lang, due), ephemeral=True)
            return
        if preset not in PRESETS:
            await interaction.response.send_message(t(lang, "error.preset", presets=", ".join(PRESETS)), ephemeral=True)
            return
        options: dict[str, Any] = {
            "mission": mission,
            "normal": normal_threats,
            "serious": serious_threats,
            "seed": seed if seed is not None else random.SystemRandom().randrange(2**31),
            "seed_given": seed is not None,
        }
        if mission == RANDOM:
            options["preset"] = preset
        if due is not None:
            options |= due.options | {"mission": due.due.mission}
        await self._open_lobby(interaction, lang, gate, options, voice=voice == "on")

    def _not_the_campaign_flight(self, lang: str, due: CampaignDue) -> str:
        """The campaign waits for its own mission here: how to fly it, or how the host changes it."""
        tree = self.bot.tree
        d = due.due
        return t(
            lang,
            "evening.campaign.wrong_flight",
            n=d.number,
            mission=d.mission,
            common=t(lang, f"difficulty.{d.common}"),
            serious=t(lang, f"difficulty.{d.serious}"),
            command=command_line(
                tree, "mission start", mission=d.mission, normal_threats=d.common, serious_threats=d.serious
            ),
            change=command_line(tree, "campaign change", mission="…"),
            end=command_line(tree, "campaign end"),
        )

    async def _may_start(
        self, interaction: discord.Interaction, language: str | None, action: str
    ) -> tuple[str, FlightGate] | None:
        """The checks before any lobby opens (answered ephemerally when one fails): a server
        channel the bot can post in, and the server's settings (/settings: channels, who may
        start), read once per start.  The language: the one asked for, else the server's."""
        lang = language if language in LANGUAGES else self.bot.settings.default_language
        if interaction.guild_id is None or interaction.channel_id is None:
            await interaction.response.send_message(t(lang, "error.guild_only"), ephemeral=True)
            return None
        gate = await flight_gate(
            self.bot.storage,
            interaction.guild_id,
            interaction.channel_id,
            interaction.user,
            admin=self._manages_guild(interaction),
            action=action,
            default_language=self.bot.settings.default_language,
        )
        if language not in LANGUAGES and gate.language in LANGUAGES:
            lang = gate.language
        if gate.refusal is not None:
            await interaction.response.send_message(gate.refusal, ephemeral=True)
            return None
        problem = perms.blocking_problem(lang, interaction.app_permissions)
        if problem:
            await interaction.response.send_message(problem, ephemeral=True)
            return None
        return lang, gate

    async def _open_lobby(
        self,
        interaction: discord.Interaction,
        lang: str,
        gate: FlightGate,
        options: dict[str, Any],
        *,
        voice: bool,
        intro: discord.Embed | None = None,
    ) -> None:
        """Store a lobby for the invoking member and post it (after `intro`, a lesson's text)."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        user = interaction.user
        record = await self._lobby_record(
            interaction.guild_id,
            interaction.channel_id,
            CrewMember(user.id, user.display_name, []),
            lang,
            gate,
            options,
        )
        record.voice = voice and gate.voice
        record.notes["warnings"] = perms.warnings(
            lang, interaction.app_permissions, self._voice_perms(interaction), record.voice
        )
        try:
            await self.flights.store.create(record)
        except ChannelBusy:
            await interaction.response.send_message(t(lang, "error.channel_busy"), ephemeral=True)
            return
        if intro is None:
            await interaction.response.send_message(embed=self._lobby_embed(record), view=self.lobby_view(record))
        else:
            embeds = [intro, self._lobby_embed(record)]
            await interaction.response.send_message(embeds=embeds, view=self.lobby_view(record))
        try:
            message = await interaction.original_response()
        except discord.HTTPException:
            return
        await self._lobby_posted(record, message.id)

    async def _lobby_record(
        self, guild_id: int, channel_id: int, host: CrewMember, lang: str, gate: FlightGate, options: dict[str, Any]
    ) -> FlightRecord:
        """A new lobby's record: the server's settings add the log's place and the voice default
        (a campaign mission's own options come from `/mission start`, which checks them)."""
        options |= {"log": gate.settings.log}
        return FlightRecord(
            id=new_flight_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.user_id,
            status="lobby",
            language=lang,
            voice=gate.voice,
            time_scale=self.bot.settings.time_scale,
            options=options,
            crew=[host],
        )

    async def _lobby_posted(self, record: FlightRecord, message_id: int) -> None:
        def remember_lobby(fresh: FlightRecord) -> None:
            fresh.lobby_message_id = message_id

        await self.flights.store.update(record.id, remember_lobby)

    # -- the flight school and scheduled flights (campaign/school.py, platform/hosting) ---
    @mission.command(name="school", description="Flight school: your next lesson, explained, then its flight")
    @app_commands.describe(
        lesson="A lesson you have opened (default: your next one)",
        untimed="Phases end when everyone has pressed Finish, not by the clock (default: the lesson's)",
    )
    @app_commands.choices(
        lesson=[
            app_commands.Choice(name=f"{item.number}. {t('en', f'school.lesson.{item.id}.title')}", value=item.id)
            for item in LESSONS
        ]
    )
    async def mission_school(
        self, interaction: discord.Interaction, lesson: str | None = None, untimed: bool | None = None
    ) -> None:
        checked = await self._may_start(interaction, None, "mission.school")
        if checked is None:
            return
        lang, gate = checked
        start = await prepare_school_flight(self.bot, interaction, lesson, untimed)
        if start is None:
            return
        options = {"normal": "white", "serious": "white", "seed_given": "seed" in start.options} | start.options
        options.setdefault("seed", random.SystemRandom().randrange(2**31))
        # an untimed flight's intercom is text only: voice would keep the recording's clock (school.py)
        await self._open_lobby(interaction, lang, gate, options, voice=not start.untimed, intro=start.embed)

    @mission.command(name="schedule", description="Schedule a flight: announced now, reminded 10 min before")
    @app_commands.describe(
        time="'in 2h', '20:30' (UTC), '2026-12-24 20:30' or a unix time",
        mission="Official mission, 'random', or one of this server's custom missions",
        campaign="A campaign night (the lobby time starts /campaign)",
        p2="Campaign night crew member",
        p3="Campaign night crew member",
        p4="Campaign night crew member",
        p5="Campaign night crew member",
    )
    async def mission_schedule(
        self,
        interaction: discord.Interaction,
        time: str,
        mission: str,
        campaign: bool = False,
        p2: discord.Member | None = None,
        p3: discord.Member | None = None,
        p4: discord.Member | None = None,
        p5: discord.Member | None = None,
    ) -> None:
        """A flight's lobby opens for its host at the time (anyone joins it then); a campaign has
        no lobby, so its crew is named now (`p2`..`p5`, as `/campaign start` takes them)."""
        lang = await server_language(self.bot.storage, interaction.guild_id, self.bot.settings.default_language)

        async def check(mission_id: str) -> str | None:
            known = await self.catalog.exists(interaction.guild_id or 0, mission_id)
            return None if known else t(lang, "error.unknown_mission", mission=mission_id)

        options: dict[str, Any] = {}
        if campaign:
            others = [m for m in (p2, p3, p4, p5) if m is not None and m.id != interaction.user.id]
            options["crew"] = [[m.id, user_text(m.display_name)] for m in dict.fromkeys(others)]
        await schedule_flight(
            self.bot, interaction, time, mission.strip(), campaign=campaign, options=options, check=check
        )

    @mission_schedule.autocomplete("mission")
    async def _schedule_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._mission_choices(interaction, current)

    @commands.Cog.listener()
    async def on_voice_state_update(self, member: discord.Member, before: Any, after: Any) -> None:
        """A member who left voice while a flight had them muted is unmuted when they come back."""
        joined = getattr(before, "channel", None) is None and getattr(after, "channel", None) is not None
        if joined and getattr(after, "mute", False):
            await self.flights.comms.member_joined_voice(member)
        # a crew member who comes into the flight's voice late (or back) gets the intercom so far
        channel = getattr(after, "channel", None)
        if channel is not None and getattr(getattr(before, "channel", None), "id", None) != channel.id:
            await self.flights.voice_joined(member, channel.id)

    @commands.Cog.listener()
    async def on_scheduled_flight(self, schedule: ScheduleRecord) -> None:
        """A scheduled flight's time has come (hosting's runner): open its lobby for the host; a
        campaign night opens the campaign's first vote for the host instead (Campaign cog)."""
        channel: Any = self.bot.get_channel(schedule.channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None:
            return
        gate = await flight_gate(
            self.bot.storage,
            schedule.guild_id,
            schedule.channel_id,
            None,
            admin=True,
            default_language=self.bot.settings.default_language,
        )
        lang = gate.language if gate.language in LANGUAGES else self.bot.settings.default_language
        if schedule.campaign:  # a campaign night: its first vote opens, as /campaign start would
            campaign: Any = self.bot.get_cog("Campaign")
            if campaign is not None:
                await campaign.open_scheduled(schedule, channel)
            else:
                await channel.send(hosting_text(gate.language, "schedule.campaign_open"))
            return
        host = guild.get_member(schedule.host_id)
        options: dict[str, Any] = {
            "mission": schedule.mission,
            "normal": schedule.options.get("normal", "white"),
            "serious": schedule.options.get("serious", "white"),
            "seed": random.SystemRandom().randrange(2**31),
            "seed_given": False,
        }
        if schedule.mission == RANDOM:
            options["preset"] = "mission"
        name = host.display_name if host is not None else str(schedule.host_id)
        record = await self._lobby_record(
            schedule.guild_id, schedule.channel_id, CrewMember(schedule.host_id, name, []), lang, gate, options
        )
        if guild.me is not None:
            record.notes["warnings"] = perms.warnings(lang, channel.permissions_for(guild.me), None, record.voice)
        try:
            await self.flights.store.create(record)
        except ChannelBusy:
            if not schedule.retry:
                await channel.send(t(lang, "error.channel_busy"))
                return
            # the scheduler finishing an opening a crash interrupted: the lobby it opened is kept
            # (one flight per channel), and posted only if its post was never recorded
            found = await self.flights.store.active_in_channel(schedule.channel_id)
            if found is None or found.status != "lobby" or found.host_id != schedule.host_id:
                return
            if found.lobby_message_id is not None:
                return
            record = found
        message = await channel.send(embed=self._lobby_embed(record), view=self.lobby_view(record))
        await self._lobby_posted(record, message.id)

    @mission_start.autocomplete("mission")
    async def _mission_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._mission_choices(interaction, current)

    async def _mission_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        names = await self.catalog.choices(interaction.guild_id)
        current = current.lower()
        hits = [(mid, label) for mid, label in names if current in mid.lower() or current in label.lower()]
        return [app_commands.Choice(name=plain_text(label, 100), value=mid) for mid, label in hits[:25]]

    async def server_lang(self, interaction: discord.Interaction) -> str:
        """The server's language (/settings language), else the bot's default: every answer of
        these commands, refusals included, speaks what the server chose."""
        return await server_language(self.bot.storage, interaction.guild_id, self.bot.settings.default_language)

    @mission.command(name="status", description="Show the flight in this channel")
    async def mission_status(self, interaction: discord.Interaction) -> None:
        lang = await self.server_lang(interaction)
        record = await self.flights.store.active_in_channel(interaction.channel_id or 0)
        if record is None:
            await interaction.response.send_message(t(lang, "error.no_flight"), ephemeral=True)
            return
        if record.status == "lobby":
            await interaction.response.send_message(embed=self._lobby_embed(record), ephemeral=True)
            return
        embed, view = self.flights.deck(record)
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING, ephemeral=True)

    @mission.command(name="abort", description="Abort the flight in this channel (host or Manage Server)")
    async def mission_abort(self, interaction: discord.Interaction) -> None:
        lang: str = await self.server_lang(interaction)
        found = await self.flights.store.active_in_channel(interaction.channel_id or 0)
        if found is None:
            await interaction.response.send_message(t(lang, "error.no_flight"), ephemeral=True)
            return
        lang = found.language
        if decide("mission.abort", actor_of(interaction), Seats.of(found.host_id)) is not None:
            await interaction.response.send_message(t(lang, "error.not_host_or_manager"), ephemeral=True)
            return
        was_flying: bool | None = None  # None: it was over before this abort

        def abort(record: FlightRecord) -> dict[str, Any] | None:
            nonlocal was_flying
            was_flying = record.status == "flying" if record.active else None
            if was_flying is None:
                return None
            record.status = "aborted"
            return {"kind": "abort", "actor_id": interaction.user.id, "payload": {}}

        async with Reply(interaction, ephemeral=False) as reply:
            try:
                record = await self.flights.store.update(found.id, abort)
            except StaleWrite:  # the flight kept changing under every attempt: ask to try again
                await reply.reject(t(lang, "error.busy"))
                return
            if record is None or was_flying is None:
                await reply.reject(t(lang, "error.flight_over"))
                return
            await reply.send(t(lang, "flight.aborted", user=interaction.user.mention))
        if was_flying:
            await self.flights.after_abort(record)
        elif record.lobby_message_id:
            await self._edit_message(
                record, record.lobby_message_id, embed=closed_embed(record, t(lang, "lobby.aborted"))
            )

    # -- custom missions -------------------------------------------------------------------------------
    custom = app_commands.Group(
        name="custom", description="This server's own missions (timeline files)", parent=mission
    )

    @custom.command(name="add", description="Upload a mission timeline (JSON) for this server (Manage Server)")
    @app_commands.describe(file="A timeline in the format of `python -m engine timeline S2-1`")
    async def custom_add(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        lang = await self.server_lang(interaction)
        guild_id = interaction.guild_id
        if guild_id is None:
            await interaction.response.send_message(t(lang, "error.guild_only"), ephemeral=True)
            return
        if decide("mission.custom_add", actor_of(interaction)) is not None:
            await interaction.response.send_message(t(lang, "custom.need_manage"), ephemeral=True)
            return
        async with Reply(interaction) as reply:
            if file.size > MAX_MISSION_FILE:
                reason = t(lang, "custom.file_too_large", size=file.size, limit=MAX_MISSION_FILE)
                await reply.reject(t(lang, "error.bad_file", reason=code_text(reason, 320)))
                return
            try:
                raw = await file.read()
            except discord.HTTPException as exc:
                reason = t(lang, "custom.file_unreachable", status=exc.status)
                await reply.reject(t(lang, "error.bad_file", reason=code_text(reason)))
                return
            problem, timeline = validate_timeline(raw)
            if timeline is None:
                await reply.reject(t(lang, "error.bad_file", reason=code_text(problem, 320)))
                return
            if timeline.id.upper() in {m.upper() for m in _official_ids()} or timeline.id.lower() == RANDOM:
                await reply.reject(t(lang, "custom.reserved_id", mission=code_inner(timeline.id)))
                return
            settings = await load_settings(self.bot.storage, guild_id)
            refusal = await CustomMissions(self.bot.storage).add(
                guild_id,
                timeline.id,
                timeline.name or timeline.id,
                timeline.to_json_dict(),
                interaction.user.id,
                lambda existing: custom_limits(settings, existing, len(raw)),
            )
            if refusal is not None:
                await reply.reject(refusal)
                return
            await reply.send(t(lang, "custom.saved", mission=code_inner(timeline.id)))

    @custom.command(name="list", description="List this server's custom missions")
    async def custom_list(self, interaction: discord.Interaction) -> None:
        lang = await self.server_lang(interaction)
        if interaction.guild_id is None:
            await interaction.response.send_message(t(lang, "error.guild_only"), ephemeral=True)
            return
        missions = await CustomMissions(self.bot.storage).missions(interaction.guild_id)
        if not missions:
            await interaction.response.send_message(t(lang, "custom.none"), ephemeral=True)
            return
        lines = []
        for mid, data in missions.items():
            tl = data["timeline"]
            threats = sum(1 for e in tl.get("events", []) if e.get("event") == "threat")
            lines.append(
                t(
                    lang,
                    "custom.line",
                    mission=code_inner(mid),
                    name=user_text(data["name"]),
                    phases=tl.get("phases"),
                    threats=threats,
                )
            )
        embed = discord.Embed(title=t(lang, "custom.title"), description="\n".join(lines)[:4096])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @custom.command(name="remove", description="Delete one of this server's custom missions (Manage Server)")
    @app_commands.describe(mission="The custom mission's id")
    async def custom_remove(self, interaction: discord.Interaction, mission: str) -> None:
        lang = await self.server_lang(interaction)
        if interaction.guild_id is None:
            await interaction.response.send_message(t(lang, "error.guild_only"), ephemeral=True)
            return
        if decide("mission.custom_remove", actor_of(interaction)) is not None:
            await interaction.response.send_message(t(lang, "custom.need_manage"), ephemeral=True)
            return
        removed = await CustomMissions(self.bot.storage).remove(interaction.guild_id, mission.strip())
        key = "custom.removed" if removed else "custom.unknown"
        await interaction.response.send_message(t(lang, key, mission=code_inner(mission)), ephemeral=True)

    @custom_remove.autocomplete("mission")
    async def _custom_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        missions = await CustomMissions(self.bot.storage).missions(interaction.guild_id)
        current = current.lower()
        return [
            app_commands.Choice(name=plain_text(f"{mid} · {data['name']}", 100), value=mid)
            for mid, data in missions.items()
            if current in mid.lower() or current in data["name"].lower()
        ][:25]

    # -- component router ----------------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, cid: _ids.ComponentId, values: list[str]) -> None:
        """Every `sa:` button and select lands here (from the DynamicItem callbacks)."""
        if cid.action in ("join", "leave", "roles", "start", "cancel"):
            await self._lobby_action(interaction, cid, values)
        else:
            await self.flights.on_component(interaction, cid, values)

    async def _lobby_action(self, interaction: discord.Interaction, cid: _ids.ComponentId, values: list[str]) -> None:
        user = interaction.user
        actor = actor_of(interaction)
        permission = "mission.lobby_start" if cid.action == "start" else f"mission.{cid.action}"
        voice_channel = getattr(getattr(user, "voice", None), "channel", None)
        mission: dict[str, Any] = {}
        problem: str | None = None
        if cid.action == "start":  # the mission may read files and custom missions: before the unit of work
            peeked = await self.flights.store.peek(cid.flight)
            hosting = peeked is not None and decide(permission, actor, Seats.of(peeked.host_id)) is None
            if peeked is not None and peeked.status == "lobby" and hosting:
                mission, problem = await self.flights.mission_part(peeked)
        refusal: str | None = None
        closed: str | None = None  # the key of the closed lobby's line (cancelled or started)

        def act(record: FlightRecord) -> dict[str, Any] | None:
            """The lobby click as a pure change (the store may run it again on a stale version)."""
            nonlocal refusal, closed
            refusal = closed = None
            lang = record.language
            if record.status != "lobby":
                refusal = t(lang, "error.lobby_closed")
                return None
            event: dict[str, Any] = {"kind": cid.action, "actor_id": user.id, "payload": {}}
            if cid.action in ("join", "leave", "roles"):
                seats = [Seat(m.user_id, m.name, list(m.roles)) for m in record.crew]  # type: ignore[arg-type]
                if cid.action == "join":
                    refused = lobby.join(seats, Seat(user.id, user.display_name))
                elif cid.action == "leave":
                    refused = lobby.leave(seats, user.id)
                else:
                    refused = lobby.choose_roles(seats, user.id, values)
                    event["payload"] = (
                        {"roles": next(s.roles for s in seats if s.key == user.id)} if not refused else {}
                    )
                if refused:
                    refusal = t(lang, f"lobby.{refused}", n=lobby.MAX_CREW)
                    return None
                record.crew = [CrewMember(int(s.key), s.name, list(s.roles)) for s in seats]
                return event
            if decide(permission, actor, Seats.of(record.host_id)) is not None:  # start, cancel: the host's
                refusal = t(lang, "lobby.host_only")
                return None
            if cid.action == "cancel":
                record.status, closed = "aborted", "lobby.cancelled"
                return event
            if (refused := lobby.ready([Seat(m.user_id, m.name) for m in record.crew])) is not None:
                refusal = t(lang, f"lobby.{refused}")
                return None
            refusal = problem or self.flights.start(record, mission, voice_channel.id if voice_channel else None)
            if refusal:
                return None
            closed = "lobby.started"
            return event

        async with Reply(interaction, update=True) as reply:
            try:
                record = await self.flights.store.update(cid.flight, act)
            except StaleWrite:  # the lobby kept changing under every attempt: ask for another click
                await reply.reject(t(self.bot.settings.default_language, "error.busy"))
                return
            lang = record.language if record else self.bot.settings.default_language
            if record is None or refusal:
                await reply.reject(refusal or t(lang, "error.lobby_closed"))
                return
            if closed is None:
                await reply.send(embed=self._lobby_embed(record), view=self.lobby_view(record))
                return
            closing = closed_embed(record, t(lang, closed))
            lesson = flight_lesson_embed(lang, record.options) if closed == "lobby.started" else None
            if lesson is None:
                await reply.send(embed=closing, view=None)
            else:  # a school flight: the lesson's text stays in view while the crew flies it
                await reply.send(embeds=[lesson, closing], view=None)
        if closed == "lobby.started":
            await self.flights.after_start(record)

    # -- helpers -------------------------------------------------------------------------------------
    def _lobby_embed(self, record: FlightRecord) -> discord.Embed:
        return lobby_embed(record, lobby.androids(len(record.crew)), record.notes.get("warnings"))

    def lobby_view(self, record: FlightRecord) -> discord.ui.View:
        lang, fid = record.language, record.id
        role_options = [
            discord.SelectOption(label=t(lang, f"role.{r}"), value=r, emoji=ROLE_EMOJI[r]) for r in lobby.ROLES
        ]
        return view_of(
            FlightButton(_ids.make(fid, "join"), label=t(lang, "lobby.join"), style=discord.ButtonStyle.success, row=0),
            FlightButton(_ids.make(fid, "leave"), label=t(lang, "lobby.leave"), row=0),
            FlightButton(
                _ids.make(fid, "start"),
                label=t(lang, "lobby.start"),
                style=discord.ButtonStyle.primary,
                row=0,
            ),
            FlightButton(
                _ids.make(fid, "cancel"),
                label=t(lang, "lobby.cancel"),
                style=discord.ButtonStyle.danger,
                row=0,
            ),
            FlightSelect(
                _ids.make(fid, "roles"),
                options=role_options,
                placeholder=t(lang, "lobby.roles"),
                min_values=0,
                max_values=len(role_options),
                row=1,
            ),
        )

    @staticmethod
    def _voice_perms(interaction: discord.Interaction) -> discord.Permissions | None:
        user: Any = interaction.user
        channel = getattr(getattr(user, "voice", None), "channel", None)
        guild = interaction.guild
        if channel is None or guild is None or guild.me is None:
            return None
        permissions: discord.Permissions = channel.permissions_for(guild.me)
        return permissions

    @staticmethod
    def _manages_guild(interaction: discord.Interaction) -> bool:
        """Manage Server in this channel (the invoking member's resolved permissions)."""
        permissions = getattr(interaction, "permissions", None)
        return bool(permissions and permissions.manage_guild)

    async def _edit_message(self, record: FlightRecord, message_id: int, **kwargs: Any) -> None:
        channel = self.bot.get_channel(record.channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as exc:
            log.info("could not edit message %s of flight %s: %s", message_id, record.id, exc)


def _official_ids() -> list[str]:
    from engine.flight.timeline import official_ids

    return official_ids()


def validate_timeline(raw: bytes) -> tuple[str, Any]:
    """(problem, None) or ("", Timeline): the very function `python -m engine timeline --file` uses."""
    from engine.flight.timeline import TimelineError, timeline_from_bytes

    try:
        return "", timeline_from_bytes(raw)
    except TimelineError as err:
        return str(err), None
