"""The hosting commands' few strings in the bot's languages (Slovak in the Slovak rulebook's words).

Kept beside the cog rather than in bot/platform/locales/*.json so this cog can land without touching the
shared catalogues; the lead may move them there (same keys) when the catalogues settle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.platform.i18n import t
from bot.platform.text import code_text

if TYPE_CHECKING:
    from bot.platform.hosting.server_settings import SettingError

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "schedule.campaign_open": "🚀 Campaign night: start it here with `/campaign start` and name your crew.",
        "refused.channel": "Flights run only in {channels} on this server.",
        "refused.role": "Only members with the {role} role may start flights on this server.",
        "schedule.announced": "🗓 **{mission}** is scheduled for {full} ({rel}). The lobby opens here then;"
        " a reminder goes out 10 minutes before.",
        "schedule.campaign": "🗓 Campaign night: **{mission}** first, {full} ({rel}). The lobby opens here then;"
        " a reminder goes out 10 minutes before.",
        "schedule.remind": "⏰ **{mission}** starts {rel}: the lobby opens here at {full}.",
        "schedule.opening": "🚀 Scheduled flight **{mission}**: the lobby opens now.",
        "schedule.dropped": "The flight scheduled for {full} (**{mission}**) was not opened: the bot was away"
        " for more than an hour.",
        "schedule.bad_time": "Not scheduled: {reason}.",
        "need_manage": "Only members with the Manage Server permission can view or change the settings.",
        "title": "Server settings",
        "saved": "Saved: **{key}** = {value}",
        "invalid": "Not saved: {reason}",
        "help.channels": "channels where flights may run",
        "help.language": "default language",
        "help.voice": "intercom voice on or off",
        "help.tts": "speech engine",
        "help.starters": "who may start flights",
        "help.log": "captain's log in a thread or in the channel",
        "help.leaderboard": "records visible to other servers and on the web logbook",
        "help.custom_max_count": "most custom missions",
        "help.custom_max_kb": "largest custom mission (KB)",
    },
    "ru": {
        "schedule.campaign_open": "🚀 Вечер кампании: начните её здесь командой `/campaign start`, назвав экипаж.",
        "refused.channel": "На этом сервере летают только в каналах {channels}.",
        "refused.role": "На этом сервере начинать полёты могут только участники с ролью {role}.",
        "schedule.announced": "🗓 **{mission}** назначен на {full} ({rel}). Лобби откроется здесь;"
        " напоминание придёт за 10 минут.",
        "schedule.campaign": "🗓 Вечер кампании: сначала **{mission}**, {full} ({rel}). Лобби откроется здесь;"
        " напоминание придёт за 10 минут.",
        "schedule.remind": "⏰ **{mission}** начинается {rel}: лобби откроется здесь в {full}.",
        "schedule.opening": "🚀 Запланированный полёт **{mission}**: лобби открывается.",
        "schedule.dropped": "Полёт на {full} (**{mission}**) не открыт: бот отсутствовал больше часа.",
        "schedule.bad_time": "Не запланировано: {reason}.",
        "need_manage": "Просматривать и менять настройки могут только участники с правом «Управлять сервером».",
        "title": "Настройки сервера",
        "saved": "Сохранено: **{key}** = {value}",
        "invalid": "Не сохранено: {reason}",
        "help.channels": "каналы, где можно летать",
        "help.language": "язык по умолчанию",
        "help.voice": "голос интеркома вкл/выкл",
        "help.tts": "движок речи",
        "help.starters": "кто может начинать полёты",
        "help.log": "бортовой журнал в ветке или в канале",
        "help.leaderboard": "видны ли рекорды другим серверам и в веб-журнале",
        "help.custom_max_count": "сколько своих заданий",
        "help.custom_max_kb": "наибольший размер своего задания (КБ)",
    },
    "cs": {
        "schedule.campaign_open": "🚀 Večer kampaně: začněte ji tady příkazem `/campaign start` a uveďte posádku.",
        "refused.channel": "Na tomto serveru se létá jen v kanálech {channels}.",
        "refused.role": "Na tomto serveru smí lety spouštět jen členové s rolí {role}.",
        "schedule.announced": "🗓 **{mission}** je naplánována na {full} ({rel}). Lobby se otevře tady;"
        " připomínka přijde 10 minut předem.",
        "schedule.campaign": "🗓 Večer kampaně: nejdřív **{mission}**, {full} ({rel}). Lobby se otevře tady;"
        " připomínka přijde 10 minut předem.",
        "schedule.remind": "⏰ **{mission}** začíná {rel}: lobby se tu otevře v {full}.",
        "schedule.opening": "🚀 Naplánovaný let **{mission}**: lobby se otevírá.",
        "schedule.dropped": "Let naplánovaný na {full} (**{mission}**) se neotevřel: bot byl pryč víc než hodinu.",
        "schedule.bad_time": "Nenaplánováno: {reason}.",
        "need_manage": "Nastavení mohou zobrazit a měnit jen členové s oprávněním Spravovat server.",
        "title": "Nastavení serveru",
        "saved": "Uloženo: **{key}** = {value}",
        "invalid": "Neuloženo: {reason}",
        "help.channels": "kanály, kde se smí létat",
        "help.language": "výchozí jazyk",
        "help.voice": "hlas interkomu zapnutý/vypnutý",
        "help.tts": "hlasový syntezátor",
        "help.starters": "kdo smí spouštět lety",
        "help.log": "lodní deník ve vlákně, nebo v kanálu",
        "help.leaderboard": "rekordy viditelné pro jiné servery a ve webovém deníku",
        "help.custom_max_count": "nejvíce vlastních misí",
        "help.custom_max_kb": "největší vlastní mise (KB)",
    },
    "sk": {
        "schedule.campaign_open": "🚀 Večer kampane: začnite ju tu príkazom `/campaign start` a uveďte posádku.",
        "refused.channel": "Na tomto serveri sa lieta len v kanáloch {channels}.",
        "refused.role": "Na tomto serveri smú lety začať len členovia s rolou {role}.",
        "schedule.announced": "🗓 **{mission}** je naplánovaná na {full} ({rel}). Lobby sa otvorí tu;"
        " pripomienka príde 10 minút vopred.",
        "schedule.campaign": "🗓 Večer kampane: najprv **{mission}**, {full} ({rel}). Lobby sa otvorí tu;"
        " pripomienka príde 10 minút vopred.",
        "schedule.remind": "⏰ **{mission}** začína {rel}: lobby sa tu otvorí o {full}.",
        "schedule.opening": "🚀 Naplánovaný let **{mission}**: lobby sa otvára.",
        "schedule.dropped": "Let naplánovaný na {full} (**{mission}**) sa neotvoril: bot bol preč viac ako hodinu.",
        "schedule.bad_time": "Nenaplánované: {reason}.",
        "need_manage": "Nastavenia môžu zobraziť a meniť len členovia s oprávnením Spravovať server.",
        "title": "Nastavenia servera",
        "saved": "Uložené: **{key}** = {value}",
        "invalid": "Neuložené: {reason}",
        "help.channels": "kanály, kde sa smie lietať",
        "help.language": "predvolený jazyk",
        "help.voice": "hlas palubného počítača zapnutý/vypnutý",
        "help.tts": "hlasový syntetizátor",
        "help.starters": "kto smie začať let",
        "help.log": "letový denník vo vlákne, alebo v kanáli",
        "help.leaderboard": "rekordy viditeľné pre iné servery a vo webovom denníku",
        "help.custom_max_count": "najviac vlastných misií",
        "help.custom_max_kb": "najväčšia vlastná misia (KB)",
    },
}


def lookup(table: dict[str, dict[str, str]], lang: str, text_key: str, /, **params: Any) -> str:
    """`text_key` of `table` in `lang`, else English, else the key itself; formatted."""
    template = table.get(lang, {}).get(text_key) or table["en"].get(text_key) or text_key
    return template.format(**params)


def tx(lang: str, text_key: str, /, **params: Any) -> str:
    return lookup(TEXT, lang, text_key, **params)


def setting_problem(lang: str, error: SettingError) -> str:
    """Why `/settings set` refused a value, in the admin's language (`settings.problem.<code>`)."""
    from bot.platform.hosting.server_settings import SETTING_KEYS

    params = dict(error.params)
    if params.get("key") not in SETTING_KEYS:  # the only part that can be a user's text
        params["key"] = code_text(params.get("key", ""), 40)
    return t(lang, f"settings.problem.{error.code}", **params)
