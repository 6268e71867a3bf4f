"""/help and Discord's own localization, both from the command tree: every command described in
every language, the Translator giving Russian and Czech clients their words, /help per language."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.platform.about.help import help_embeds
from bot.platform.command_locale import CLIENT_LANGUAGES, CommandTranslator, command_key, option_key
from bot.platform.i18n import catalogue

LANGS = ("en", "ru", "cs", "sk")


def leaves(tree: Any) -> list[Any]:
    return [c for c in tree.walk_commands()]


def test_every_command_and_option_has_a_description_in_every_language(bot: Any) -> None:
    for command in leaves(bot.tree):
        for lang in LANGS:
            texts = catalogue(lang)
            assert texts.get(command_key(command)), (lang, command.qualified_name)
            if lang == "en":  # the English entry is the tree's own text: one source
                assert texts[command_key(command)] == command.description, command.qualified_name
        if not isinstance(command, app_commands.Command):
            continue
        for parameter in command.parameters:
            if parameter.description == "…":
                continue  # no description in the tree either
            for lang in LANGS:
                text = catalogue(lang).get(option_key(command, parameter.name))
                assert text and len(text) <= 100, (lang, command.qualified_name, parameter.name)


async def test_the_translator_speaks_russian_and_czech_and_leaves_the_rest(bot: Any) -> None:
    assert discord.Locale.russian in CLIENT_LANGUAGES and discord.Locale.czech in CLIENT_LANGUAGES
    assert not any(locale.value.startswith("sk") for locale in discord.Locale)  # Slovak: no Discord locale
    translator = CommandTranslator()
    start = bot.tree.get_command("mission").get_command("start")
    payload = await start.get_translated_payload(bot.tree, translator)
    assert payload["description_localizations"]["ru"] == "Открыть лобби задания в этом канале"
    assert payload["description_localizations"]["cs"] == "Otevřít lobby mise v tomto kanálu"
    assert payload["name"] == "start" and payload["name_localizations"] == {"ru": "начать", "cs": "začít"}
    normal = next(o for o in payload["options"] if o["name"] == "normal_threats")
    assert normal["name_localizations"] == {"ru": "обычные_угрозы", "cs": "běžná_ohrožení"}
    assert normal["description_localizations"]["ru"] == "Сложность обычных угроз"
    white = next(c for c in normal["choices"] if c["value"] == "white")
    assert white["name_localizations"]["cs"] == "bílá" and "de" not in white["name_localizations"]


@pytest.mark.parametrize("lang", LANGS)
def test_help_per_language_teaches_commands_that_exist(bot: Any, lang: str) -> None:
    messages = help_embeds(bot.tree, lang)
    text = "\n".join(
        f"{e.title}\n{e.description}\n" + "\n".join(f"{f.name}\n{f.value}" for f in e.fields)
        for message in messages
        for e in message
    )
    for message in messages:
        assert len(message) <= 10 and sum(len(e) for e in message) <= 6000
    assert "`/mission start mission:S1-1`" in text and "**/campaign change**" in text and "`normal_threats`" in text
    for command in leaves(bot.tree):
        if isinstance(command, app_commands.Command):
            assert f"**/{command.qualified_name}**" in text, command.qualified_name
    first = messages[0][0]
    assert first.title == catalogue(lang)["evening.help.title"]
    if lang != "en":  # no English sentence left (command names and option names are code)
        prose = re.sub(r"`[^`]*`|\*\*/[^*]*\*\*|/[a-z]+", "", text)
        english = re.findall(r"\b(the|and|of|this|your|flight|mission|command|threats)\b", prose, re.I)
        assert english == [], (lang, english[:10])


async def test_a_new_server_starts_in_its_preferred_locale(bot: Any) -> None:
    cog = bot.get_cog("Help")
    czech = discord.Locale.czech
    assert await cog.adopt_preferred_locale(4242, czech) == "cs"
    assert await bot.storage.get_setting(4242, "language") == "cs"
    await bot.storage.set_setting(4242, "language", "sk")  # a setting wins over the locale
    assert await cog.adopt_preferred_locale(4242, czech) is None
    assert await bot.storage.get_setting(4242, "language") == "sk"
    assert await cog.adopt_preferred_locale(4343, discord.Locale.german) is None
    assert await bot.storage.get_setting(4343, "language") is None
