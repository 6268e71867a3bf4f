"""Command and option names in the Russian and Czech clients (issue 24, Discord's own
localization): every command, group, subcommand and option of every game and of the platform has
a ru and a cs name that Discord accepts, unique among its siblings, and the synced payload
carries them; the English names stay the commands' real names."""

from __future__ import annotations

import unicodedata
from typing import Any

import discord
from discord import app_commands

from bot.platform.about.help import help_embeds
from bot.platform.command_line import command_line
from bot.platform.command_locale import (
    CLIENT_LANGUAGES,
    CommandTranslator,
    is_discord_name,
    localized_name,
    localized_path,
    name_key,
)
from bot.platform.i18n import catalogue

CLIENT_LANGS = tuple(CLIENT_LANGUAGES.values())
#: every game's top-level commands and the platform's: the test fails if one stops being loaded
EXPECTED_TOPS = {"mission", "campaign", "elite", "legion", "escape", "help", "about", "settings"}


def discord_rule(name: str) -> bool:
    """Discord's documented rule, written out independently of `is_discord_name`:
    `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` and lowercase (no Devanagari/Thai here)."""
    allowed = all(ch in "-_" or unicodedata.category(ch)[:1] in ("L", "N") for ch in name)
    return 1 <= len(name) <= 32 and allowed and name == name.lower() and " " not in name


def nodes(tree: Any) -> list[Any]:
    """Every command and group, top-level ones included (context menus have no options)."""
    return [c for c in tree.walk_commands() if isinstance(c, app_commands.Command | app_commands.Group)]


def siblings(tree: Any) -> list[list[Any]]:
    """The groups of names that must differ: top-level commands, and each group's children."""
    tops = [c for c in tree.get_commands() if isinstance(c, app_commands.Command | app_commands.Group)]
    return [tops] + [list(g.commands) for g in nodes(tree) if isinstance(g, app_commands.Group)]


def test_the_rule_itself_refuses_what_discord_refuses() -> None:
    for good in ("миссия", "začít", "obtížnost", "p2", "elite-správa", "член_экипажа", "полёт"):
        assert discord_rule(good) and is_discord_name(good), good
    for bad in ("Mise", "Миссия", "два слова", "", "x" * 33, "a.b", "what?", "a/b"):
        assert not discord_rule(bad) and not is_discord_name(bad), bad


def test_every_command_and_option_has_a_russian_and_czech_name(bot: Any) -> None:
    tops = {c.name for c in bot.tree.get_commands()}
    assert tops >= EXPECTED_TOPS, EXPECTED_TOPS - tops
    checked = 0
    english = catalogue("en")
    for command in nodes(bot.tree):
        params = command.parameters if isinstance(command, app_commands.Command) else []
        shown = {p.name: p.display_name for p in params}  # `json_text` is shown as `json`
        for option in [None, *shown]:
            key = name_key(command, option)
            assert english.get(key) == (shown[option] if option else command.name), key  # one English source
            for lang in CLIENT_LANGS:
                name = catalogue(lang).get(key)
                assert name and discord_rule(name), (lang, key, name)
                assert localized_name(lang, command, option) == name
                checked += 1
    assert checked > 200  # ~110 commands and options, two languages


def test_sibling_names_are_unique_in_each_locale(bot: Any) -> None:
    for lang in ("en", *CLIENT_LANGS):
        for group in siblings(bot.tree):
            names = [localized_name(lang, c) or c.name for c in group]
            assert len(names) == len(set(names)), (lang, sorted(names))
        for command in nodes(bot.tree):
            if isinstance(command, app_commands.Command):
                options = [localized_name(lang, command, p.name) or p.display_name for p in command.parameters]
                assert len(options) == len(set(options)), (lang, command.qualified_name, options)


async def test_the_synced_payload_carries_the_names(bot: Any) -> None:
    translator = CommandTranslator()
    seen = 0
    for top in bot.tree.get_commands():
        if not isinstance(top, app_commands.Command | app_commands.Group):
            continue
        payload = await top.get_translated_payload(bot.tree, translator)
        stack: list[tuple[Any, dict[str, Any]]] = [(top, payload)]
        while stack:
            node, data = stack.pop()
            assert data["name"] == node.name  # the English name stays the command's name
            assert set(data["name_localizations"]) == {"ru", "cs"}, node.qualified_name
            assert data["name_localizations"]["ru"] == catalogue("ru")[name_key(node)]
            seen += 1
            for option in data.get("options", []):
                if option["type"] in (1, 2):  # a subcommand or a subcommand group
                    child = node.get_command(option["name"])
                    stack.append((child, option))
                else:
                    assert set(option["name_localizations"]) == {"ru", "cs"}, (node.qualified_name, option)
                    python = next(p.name for p in node.parameters if p.display_name == option["name"])
                    assert option["name_localizations"]["cs"] == catalogue("cs")[name_key(node, python)]
                    seen += 1
    assert seen > 100
    mission = await bot.tree.get_command("mission").get_translated_payload(bot.tree, translator)
    assert mission["name_localizations"] == {"ru": "миссия", "cs": "mise"}


async def test_slovak_and_other_clients_get_no_names(bot: Any) -> None:
    """Discord has no Slovak locale; a German client keeps the English names."""
    translator = CommandTranslator()
    start = bot.tree.get_command("mission").get_command("start")
    context = app_commands.TranslationContext(location=app_commands.TranslationContextLocation.command_name, data=start)
    assert await translator.translate(app_commands.locale_str("start"), discord.Locale.german, context) is None
    assert await translator.translate(app_commands.locale_str("start"), discord.Locale.czech, context) == "začít"
    assert localized_path("sk", start) is None and localized_path("en", start) is None
    assert localized_path("ru", start) == "/миссия начать"


def test_help_shows_the_localized_names_on_russian_and_czech_servers(bot: Any) -> None:
    def text(lang: str) -> str:
        return "\n".join(
            f"{e.title}\n{e.description}\n" + "\n".join(f.value for f in e.fields)
            for message in help_embeds(bot.tree, lang)
            for e in message
        )

    russian, czech, slovak = text("ru"), text("cs"), text("sk")
    assert "**/mission start** (`/миссия начать`)" in russian
    assert "`normal_threats` (`обычные_угрозы`)" in russian
    assert "**/mission start** (`/mise začít`)" in czech
    assert "`/mission start mission:S1-1`" in czech  # the steps teach the name that works everywhere
    assert "**/mission start** —" in slovak and "(`" not in slovak  # no Slovak client, no Slovak names
    assert "`json` (`текст_json`)" in russian  # an option shows the name Discord shows (renamed)


def test_a_taught_line_prints_the_option_as_discord_shows_it(bot: Any) -> None:
    """`json_text` is renamed `json` for Discord: a message teaching it must print `json:`."""
    assert command_line(bot.tree, "resolve", json_text="{}") == "`/resolve json:{}`"
    assert command_line(bot.tree, "mission start", mission="S1-1") == "`/mission start mission:S1-1`"
