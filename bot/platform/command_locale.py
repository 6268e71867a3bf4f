"""Slash commands in the players' languages: Discord's own localization and the bot's texts.

Descriptions of commands and options, and the names of choices, are translated through
discord.py's `app_commands.Translator` (`CommandTranslator`), so a Russian or Czech Discord client
shows them in its language.  Discord has no Slovak locale (see `discord.Locale`): a Slovak client
shows the English texts, and Slovak servers read them in `/help`, which renders the same catalogue.

Command, group, subcommand and option *names* are localized too (`evening.name.<command>` and
`evening.name.<command>.<option>`, in `bot/platform/locales/names/`): a Russian client's picker
lists `/миссия начать`, a Czech one `/mise začít`.  The English name stays the command's real
name: Discord matches what a player types against both, so `/mission start` still works on every
client, and it is the one name every message prints (`bot/platform/command_line.py`), because a
crew mixes clients in several languages and a message cannot know who reads it.  `/help` shows
the localized name beside the English one on a Russian or Czech server, so players can find in
their picker what the messages teach.

Descriptions live in `bot/platform/locales/<area>/<lang>.json` under `evening.cmd.<command>` and
`evening.opt.<command>.<option>`; the English entries repeat the tree's own descriptions and names
(a test checks they agree, so the code stays the one source of the English text).  The names of a
game's own choices come from the game (`register_choice_names`), since the platform knows no game.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands

from bot.platform.i18n import catalogue

# Discord locales the bot speaks; Slovak is not a Discord locale, so it is not here.
CLIENT_LANGUAGES: dict[discord.Locale, str] = {discord.Locale.russian: "ru", discord.Locale.czech: "cs"}

# (lang, choice value) -> the choice's name in lang, or None when the value is not this game's
ChoiceNames = Callable[[str, str], str | None]
_CHOICE_NAMES: dict[str, ChoiceNames] = {}


def register_choice_names(owner: str, names: ChoiceNames) -> None:
    """A game contributes the words of its choices (difficulties, lessons, ...).

    Why a hook: the platform translates every command's choices but knows no game, so it cannot
    know that "white" is a threat difficulty or "L03" a lesson; the game that declares the
    choice names it.  One entry per owner: registering again replaces it (a reloaded extension)."""
    _CHOICE_NAMES[owner] = names


def command_key(command: Any) -> str:
    return f"evening.cmd.{command.qualified_name}"


def option_key(command: Any, name: str) -> str:
    return f"evening.opt.{command.qualified_name}.{name}"


def name_key(command: Any, option: str | None = None) -> str:
    """`evening.name.mission start` (the command) or `evening.name.mission start.seed` (an option)."""
    key = f"evening.name.{command.qualified_name}"
    return f"{key}.{option}" if option else key


def is_discord_name(name: str) -> bool:
    """Discord's rule for a (localized) command or option name: 1-32 characters, each a letter, a
    digit, `-` or `_` (`^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`), and lowercase.

    Why checked at run time too: Discord refuses the whole command sync for one bad name, so a
    name that breaks the rule is left out (the client then shows the English one) instead."""
    if not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(
        ch in "-_"
        or unicodedata.category(ch)[0] in "LN"
        or "\u0900" <= ch <= "\u097f"  # Devanagari
        or "\ua8e0" <= ch <= "\ua8ff"  # Devanagari Extended
        or "\u0e00" <= ch <= "\u0e7f"  # Thai
        for ch in name
    )


def localized_name(lang: str, command: Any, option: str | None = None) -> str | None:
    """The name a `lang` client shows for a command or option (None: not named in lang, or a
    name Discord would refuse)."""
    name = _local(lang, name_key(command, option))
    return name if name and is_discord_name(name) else None


def localized_path(lang: str, command: Any) -> str | None:
    """ "/миссия начать": the command as a `lang` client's picker lists it (None: `lang` is not a
    Discord locale, or nothing of it is named in `lang`)."""
    if lang not in CLIENT_LANGUAGES.values():
        return None
    words: list[str] = []
    node: Any = command
    while node is not None:
        words.append(localized_name(lang, node) or node.name)
        node = node.parent
    path = "/" + " ".join(reversed(words))
    return None if path == f"/{command.qualified_name}" else path


def _local(lang: str, key: str) -> str | None:
    """The catalogue's text of `key` in `lang`, no English fallback (None: not translated)."""
    return catalogue(lang).get(key)


def command_description(lang: str, command: Any) -> str:
    """A command's or group's description in `lang` (the tree's English one otherwise)."""
    return _local(lang, command_key(command)) or str(command.description)


def option_description(lang: str, command: Any, parameter: Any) -> str:
    return _local(lang, option_key(command, parameter.name)) or str(parameter.description)


def choice_name(lang: str, choice: app_commands.Choice[Any]) -> str | None:
    """A choice's name in `lang`, for the choices whose words the bot has (None: keep it)."""
    value = str(choice.value)
    if value in ("on", "off"):
        return _local(lang, f"evening.choice.{value}")
    for names in _CHOICE_NAMES.values():
        name = names(lang, value)
        if name:
            return name
    return None


class CommandTranslator(app_commands.Translator):
    """Names, descriptions and choice names for the Russian and Czech Discord clients."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        lang = CLIENT_LANGUAGES.get(locale)
        if lang is None:
            return None
        where, data = context.location, context.data
        data_any: Any = data
        text: str | None = None
        if where in (
            app_commands.TranslationContextLocation.command_name,
            app_commands.TranslationContextLocation.group_name,
        ):
            return localized_name(lang, data)
        if where is app_commands.TranslationContextLocation.parameter_name:
            return localized_name(lang, data_any.command, data_any.name)
        if where in (
            app_commands.TranslationContextLocation.command_description,
            app_commands.TranslationContextLocation.group_description,
        ):
            text = _local(lang, command_key(data))
        elif where is app_commands.TranslationContextLocation.parameter_description:
            text = _local(lang, option_key(data_any.command, data_any.name))
        elif where is app_commands.TranslationContextLocation.choice_name and isinstance(data, app_commands.Choice):
            text = choice_name(lang, data)
        return text[:100] if text else None
