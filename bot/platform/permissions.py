"""Who may do what, declared once per action, checked by the platform before a game's handler.

Why one table: each game used to write its own `if user.id != host` (or forget it: any member
could stop someone else's ELITE game).  Here every action of every game names one `Who`; the
game registers its actions with `declare`, and before a handler changes anything it asks
`decide` (pure: usable inside a unit of work) or `guard` (answers the polite refusal itself,
ephemeral, in the server's language).  A test walks the whole table: every action x host /
seated player / other member / Manage Server.

The platform knows no game: a game passes plain values (the host's id, the seated member ids,
the server's starters role and channels) and gets back a refusal code or None.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.platform.i18n import t


class Who(enum.Enum):
    """Who may do an action.  Manage Server may do everything but play in another's seat."""

    ANYONE = "anyone"  # any member of the server (reading boards, replays, joining a lobby)
    SEATED = "seated"  # a member with a seat in this game (votes, hands); Manage Server is no seat
    HOST = "host"  # the member who opened the game, or Manage Server
    MANAGER = "manager"  # Manage Server only (server settings, data packs, custom missions)
    STARTER = "starter"  # opens a game: the server's starters role in its channels, or Manage Server


@dataclass(frozen=True, slots=True)
class Actor:
    """The member pressing or typing, as the platform needs them (no Discord object)."""

    user_id: int
    manage_guild: bool = False
    role_ids: frozenset[int] = frozenset()
    channel_id: int = 0


@dataclass(frozen=True, slots=True)
class Seats:
    """A game's host and seated members, by member id (names are only ever rendered)."""

    host_id: int | None = None
    seated: frozenset[int] = frozenset()

    @classmethod
    def of(cls, host_id: int | None, seated: Iterable[int] = ()) -> Seats:
        return cls(host_id, frozenset(int(s) for s in seated))


@dataclass(frozen=True, slots=True)
class Starters:
    """The server's /settings for opening games: the starters role (None: everyone) and the
    channels games may open in (empty: any)."""

    role_id: int | None = None
    channels: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Rule:
    who: Who
    what: str = ""  # a few words for the README / a failing test


@dataclass
class Registry:
    """game -> action -> rule.  One per process (`RULES`); games fill it when they are imported."""

    games: dict[str, dict[str, Rule]] = field(default_factory=dict)

    def declare(self, game: str, rules: Mapping[str, Who | Rule]) -> dict[str, Rule]:
        table = {action: r if isinstance(r, Rule) else Rule(r) for action, r in rules.items()}
        self.games.setdefault(game, {}).update(table)
        return table

    def rule(self, action: str) -> Rule:
        """The rule of `game.action`; an undeclared action is a programming error."""
        game, _, name = action.partition(".")
        try:
            return self.games[game][name]
        except KeyError:
            raise KeyError(f"permission not declared: {action!r}") from None

    def actions(self) -> list[str]:
        return [f"{game}.{name}" for game, table in self.games.items() for name in table]


RULES = Registry()


def declare(game: str, rules: Mapping[str, Who | Rule]) -> dict[str, Rule]:
    """A game's permission table (`{"stop": Who.HOST, ...}`), registered under its name."""
    return RULES.declare(game, rules)


def decide(action: str, actor: Actor, seats: Seats | None = None, starters: Starters | None = None) -> str | None:
    """None when `actor` may do `action` (`game.name`), else the refusal code: 'host', 'seated',
    'manager', 'channel' or 'role'.  Pure: callable inside a unit of work."""
    who = RULES.rule(action).who
    seats = seats or Seats()
    if who is Who.ANYONE:
        return None
    if who is Who.SEATED:
        return None if actor.user_id in seats.seated else "seated"
    if actor.manage_guild:
        return None
    if who is Who.MANAGER:
        return "manager"
    if who is Who.HOST:
        return None if seats.host_id is not None and actor.user_id == seats.host_id else "host"
    starters = starters or Starters()
    if starters.channels and actor.channel_id not in starters.channels:
        return "channel"
    if starters.role_id is not None and starters.role_id not in actor.role_ids:
        return "role"
    return None


def refusal(lang: str, code: str, starters: Starters | None = None) -> str:
    """The polite refusal for a code of `decide`, in `lang`.  Channels and roles are mentions
    (markup only: every reply that carries one is sent with no pings)."""
    starters = starters or Starters()
    return t(
        lang,
        f"permissions.{code}",
        channels=" ".join(f"<#{c}>" for c in starters.channels) or "-",
        role=f"<@&{starters.role_id}>" if starters.role_id is not None else "-",
    )


def actor_of(interaction: Any) -> Actor:
    """The Actor of a discord.py interaction (its resolved permissions in the channel, its roles)."""
    user = interaction.user
    permissions = getattr(interaction, "permissions", None)
    roles = getattr(user, "roles", None) or []
    return Actor(
        user_id=int(user.id),
        manage_guild=bool(permissions is not None and getattr(permissions, "manage_guild", False)),
        role_ids=frozenset(int(getattr(r, "id", r)) for r in roles),
        channel_id=int(getattr(interaction, "channel_id", None) or 0),
    )


async def guard(
    interaction: Any,
    action: str,
    lang: str,
    seats: Seats | None = None,
    starters: Starters | None = None,
) -> bool:
    """True when the member may go on; else answers the refusal (ephemeral, no pings) and says False.
    Call it before the handler changes anything."""
    code = decide(action, actor_of(interaction), seats, starters)
    if code is None:
        return True
    await answer_refusal(interaction, refusal(lang, code, starters))
    return False


async def answer_refusal(interaction: Any, text: str) -> None:
    """An ephemeral answer with no pings, whether or not the interaction was answered already."""
    none = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=none)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=none)
