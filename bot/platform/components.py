"""Component custom ids from one registry: every prefix is registered once, every id is built and
parsed here.

Why one registry: Discord refuses a whole message (400, code 50035) when two of its components
share a custom id or one is longer than 100 characters, and the player then gets an apology
instead of the picture they asked for.  Each game used to format its own ids, so nothing stopped
two buttons of one message from getting the same id.  Here an id can only be built from a
registered kind (its prefix and the pattern of each part), so it is checked against its own
pattern and the length limit at build time, and `Components` (the view every message's rows are
built in) refuses a second equal id when the item is added, in the code that made the mistake.

A kind is `prefix:part:part...`; prefixes never contain ':' and are unique, so the first segment
of an id names its kind, and `parse` finds it again.  A kind's last parts may be optional: a part
added to a kind after its ids were sent (e.g. the state a button was shown at), so the buttons of
messages posted before it still route.  A game marks the DynamicItem class that
routes its kind with `handles(kind)`; the meta-test checks every kind has one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord

MAX_LEN = 100  # Discord's limit on a custom id
SEP = ":"
_PREFIX = re.compile(r"[a-z][a-z0-9\-]{0,15}")
_T = TypeVar("_T", bound=type)


class ComponentIdError(ValueError):
    """An id that Discord would refuse or that no registered kind describes; raised while the
    message is being built (a bug in the code building it, never a player's input)."""

    code = "component_id"


class DuplicateComponentId(ComponentIdError):
    code = "component_id_duplicate"


@dataclass(frozen=True)
class IdKind:
    """One registered id shape: a prefix and its named parts, each with its pattern."""

    prefix: str
    parts: tuple[tuple[str, str], ...]
    summary: str
    example: tuple[str, ...]  # parts of one valid id (the meta-test routes it)
    # How many of the last parts an id may leave out: parts added after ids of the kind were
    # sent, so a message posted before still routes (its parts are then absent from `parse`).
    optional: int = 0

    def pattern(self, **narrow: str) -> str:
        """The regex of this kind's ids, with some parts narrowed (e.g. the actions one
        DynamicItem class answers); usable as a DynamicItem template."""
        unknown = set(narrow) - {name for name, _ in self.parts}
        if unknown:
            raise ComponentIdError(f"{self.prefix}: no part named {sorted(unknown)}")
        groups = [f"(?P<{name}>{narrow.get(name, regex)})" for name, regex in self.parts]
        required = len(groups) - self.optional
        tail = ""
        for group in reversed(groups[required:]):  # each optional part only after the one before it
            tail = f"(?:{SEP}{group}{tail})?"
        return SEP.join([re.escape(self.prefix), *groups[:required]]) + tail

    def make(self, *parts: object) -> str:
        """`prefix:part:...`; raises ComponentIdError when a part does not fit or the id is long.
        The optional last parts may be left out (an id that does not need them)."""
        if not len(self.parts) - self.optional <= len(parts) <= len(self.parts):
            raise ComponentIdError(f"{self.prefix}: {len(self.parts)} parts expected, got {len(parts)}")
        value = SEP.join([self.prefix, *(str(p) for p in parts)])
        if len(value) > MAX_LEN:
            raise ComponentIdError(f"custom id of {len(value)} characters (Discord's limit is {MAX_LEN}): {value!r}")
        if re.fullmatch(self.pattern(), value) is None:
            raise ComponentIdError(f"custom id {value!r} does not fit the {self.prefix!r} kind")
        return value

    def parse(self, custom_id: str) -> dict[str, str] | None:
        """The named parts of an id of this kind, or None (any string, never an exception)."""
        if not isinstance(custom_id, str) or len(custom_id) > MAX_LEN:
            return None
        match = re.fullmatch(self.pattern(), custom_id)
        return {name: value for name, value in match.groupdict().items() if value is not None} if match else None


@dataclass
class Registry:
    """Every kind of custom id the bot sends, by prefix, and the classes that route them."""

    kinds: dict[str, IdKind] = field(default_factory=dict)
    handlers: dict[str, list[type]] = field(default_factory=dict)

    def register(
        self,
        prefix: str,
        parts: Mapping[str, str],
        *,
        summary: str,
        example: tuple[str, ...],
        optional: tuple[str, ...] = (),
    ) -> IdKind:
        """A new kind.  `optional`: the names of its last parts that an id may leave out (parts
        added later: ids already sent without them keep routing)."""
        if not _PREFIX.fullmatch(prefix):
            raise ComponentIdError(f"prefix {prefix!r}: lower-case letters, digits and '-', at most 16")
        if prefix in self.kinds:
            raise ComponentIdError(f"prefix {prefix!r} is registered twice")
        names = tuple(parts)
        if optional and names[len(names) - len(optional) :] != tuple(optional):
            raise ComponentIdError(f"{prefix}: optional parts {optional} must be the last ones of {names}")
        kind = IdKind(prefix, tuple(parts.items()), summary, example, len(optional))
        kind.make(*example)  # the example must be a valid id: checked at import time
        self.kinds[prefix] = kind
        self.handlers.setdefault(prefix, [])
        return kind

    def parse(self, custom_id: str) -> tuple[IdKind, dict[str, str]] | None:
        """The kind and parts of any string that is one of our ids, else None."""
        if not isinstance(custom_id, str):
            return None
        kind = self.kinds.get(custom_id.split(SEP, 1)[0])
        if kind is None:
            return None
        parts = kind.parse(custom_id)
        return (kind, parts) if parts is not None else None

    def handles(self, kind: IdKind) -> Callable[[_T], _T]:
        """Class decorator for the DynamicItem that routes (part of) `kind`."""

        def mark(cls: _T) -> _T:
            template = getattr(cls, "__discord_ui_compiled_template__", None)
            if template is None or not template.pattern.startswith(re.escape(kind.prefix) + SEP):
                raise ComponentIdError(f"{cls.__name__}: its template is not of the {kind.prefix!r} kind")
            if cls not in self.handlers[kind.prefix]:
                self.handlers[kind.prefix].append(cls)
            return cls

        return mark


REGISTRY = Registry()
register = REGISTRY.register
parse = REGISTRY.parse
handles = REGISTRY.handles


def custom_id_of(item: discord.ui.Item[Any]) -> str | None:
    """The custom id of a button or select (a link button has none)."""
    value = getattr(item, "custom_id", None)
    return value if isinstance(value, str) else None


class Components(discord.ui.View):
    """The rows of one message.  Adding an item whose custom id is already in the message, or is
    longer than Discord allows, raises at once, so a message Discord would refuse is never sent.

    No timeout: our messages are routed by their ids (DynamicItems), not by this object.
    """

    def __init__(self, *items: discord.ui.Item[Any], timeout: float | None = None) -> None:
        super().__init__(timeout=timeout)
        for item in items:
            self.add_item(item)

    def add_item(self, item: discord.ui.Item[Any]) -> Components:
        custom_id = custom_id_of(item)
        if custom_id is not None:
            if len(custom_id) > MAX_LEN:
                raise ComponentIdError(f"custom id of {len(custom_id)} characters: {custom_id!r}")
            if custom_id in self.custom_ids():
                raise DuplicateComponentId(f"custom id {custom_id!r} twice in one message")
        super().add_item(item)
        return self

    def custom_ids(self) -> list[str]:
        return [cid for cid in (custom_id_of(child) for child in self.children) if cid is not None]

    @property
    def timeout(self) -> float | None:
        return discord.ui.View.timeout.fget(self)  # type: ignore[attr-defined,no-any-return]

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        """discord.py gives the view of every ephemeral answer 15 minutes, with a task that keeps the
        view (~4 KB) alive all that time: one per opened station, so memory grew with every click.
        A view of DynamicItems only is routed by its ids and needs no timeout: it keeps none."""
        if value is not None and self._fully_dynamic():
            return
        discord.ui.View.timeout.fset(self, value)  # type: ignore[attr-defined]

    def _fully_dynamic(self) -> bool:
        return all(isinstance(item, discord.ui.DynamicItem) for item in self.walk_children() if item.is_dispatchable())
