"""The campaign's strings in the bot's languages (Slovak in the Slovak rulebook's words: "prieskumná
kampaň", "tímy robotov", "vizuálna konfirmácia"), kept beside the cog like the hosting and stats
strings; the same keys can move to bot/locales/*.json when the catalogues settle.

Difficulties, outcomes and threat names come from the shared catalogue (bot.i18n).
"""

from __future__ import annotations

from typing import Any

from bot.exts.hosting._text import lookup
from bot.i18n import t

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "label.common": "Common threats",
        "label.serious": "Serious threats",
        "label.continue": "Go on?",
        "choice.end": "end",
        "choice.continue": "go on",
        "vote.title": "Exploration campaign — before mission {n} of 3",
        "vote.voted": "Voted: {voted}/{crew} · all agree, else the majority; a tie is cautious.",
        "vote.closes": "The vote closes {when}.",
        "vote.done": "The crew has voted.",
        "flown": "Flown",
        "repair.title": "Repairs after mission {n}",
        "repair.none": "No damage tokens.",
        "repair.squads": "Battlebot squads out of order: {n}",
        "repair.rule": "Each conscious crew member repairs one damage token or one squad (at most 2 tokens per zone).",
        "repair.knocked_out": "Knocked out, recovering: {names}",
        "repair.chosen": "Chosen: {chosen}",
        "repair.nobody": "nobody yet",
        "repair.default": "Whoever has not chosen {when} gets the default repair.",
        "repair.squad": "a battlebot squad",
        "repair.placeholder": "What do you repair?",
        "line": "{i}. {mission}: {outcome}, threats {threats}, observation {observation}",
        "score.title": "Exploration campaign — final score",
        "score.lost": "💥 The ship was lost: the campaign is lost (destroyed by {threat}).",
        "score.parts": "Threat points {threats} · penalties of the last mission {penalties} (damage {damage},"
        " worst zone {worst}, knocked out {knocked}, battlebots {bots}) · observation {observation}",
        "score.total": "**Total: {total}**",
        "announce": "🚀 Campaign mission {n}: **{mission}**, threats {common} / {serious}. Start it with"
        " `/mission start mission:{mission} normal:{common_id} serious:{serious_id}`; the ship keeps its damage.",
        "already": "A campaign is already running in this channel (/campaign status).",
        "none": "No campaign in this channel.",
        "ended_early": "The campaign ended before its first mission.",
        "not_running": "No campaign is running in this channel.",
        "only_host": "Only the host or someone with Manage Server can end the campaign.",
        "over": "This campaign is over.",
        "only_crew": "Only the campaign's crew can choose here.",
        "not_counted": "Not counted: {reason}.",
        "zone.red": "red",
        "zone.white": "white",
        "zone.blue": "blue",
        "token.structural": "structural",
        "token.lift": "lift",
        "token.shield": "shield",
        "token.reactor": "reactor",
        "token.upper_cannon": "heavy laser",
        "token.lower_cannon": "light laser",
    },
    "ru": {
        "label.common": "Обычные угрозы",
        "label.serious": "Серьёзные угрозы",
        "label.continue": "Летим дальше?",
        "choice.end": "закончить",
        "choice.continue": "дальше",
        "vote.title": "Исследовательская кампания — перед миссией {n} из 3",
        "vote.voted": "Проголосовали: {voted}/{crew} · решает единогласие, иначе большинство;"
        " при равенстве — осторожный выбор.",
        "vote.closes": "Голосование закроется {when}.",
        "vote.done": "Экипаж проголосовал.",
        "flown": "Пройдено",
        "repair.title": "Ремонт после миссии {n}",
        "repair.none": "Жетонов повреждений нет.",
        "repair.squads": "Выведено из строя отрядов боевых роботов: {n}",
        "repair.rule": "Каждый член экипажа в сознании чинит один жетон повреждения или один отряд"
        " (не больше 2 жетонов на зону).",
        "repair.knocked_out": "Без сознания, приходят в себя: {names}",
        "repair.chosen": "Выбрано: {chosen}",
        "repair.nobody": "пока никто",
        "repair.default": "Кто не выберет {when}, получит ремонт по умолчанию.",
        "repair.squad": "отряд боевых роботов",
        "repair.placeholder": "Что вы чините?",
        "line": "{i}. {mission}: {outcome}, угрозы {threats}, наблюдение {observation}",
        "score.title": "Исследовательская кампания — итоговый счёт",
        "score.lost": "💥 Корабль погиб: кампания проиграна (его уничтожила угроза {threat}).",
        "score.parts": "Очки за угрозы {threats} · штрафы последней миссии {penalties} (повреждения {damage},"
        " худшая зона {worst}, без сознания {knocked}, роботы {bots}) · наблюдение {observation}",
        "score.total": "**Итого: {total}**",
        "announce": "🚀 Миссия кампании {n}: **{mission}**, угрозы {common} / {serious}. Запуск:"
        " `/mission start mission:{mission} normal:{common_id} serious:{serious_id}`; повреждения корабля сохраняются.",
        "already": "В этом канале уже идёт кампания (/campaign status).",
        "none": "В этом канале нет кампании.",
        "ended_early": "Кампания закончилась до первой миссии.",
        "not_running": "В этом канале не идёт кампания.",
        "only_host": "Закончить кампанию может только её организатор или участник с правом «Управлять сервером».",
        "over": "Эта кампания закончена.",
        "only_crew": "Выбирать здесь может только экипаж кампании.",
        "not_counted": "Не засчитано: {reason}.",
        "zone.red": "красная",
        "zone.white": "белая",
        "zone.blue": "синяя",
        "token.structural": "корпус",
        "token.lift": "лифт",
        "token.shield": "щит",
        "token.reactor": "реактор",
        "token.upper_cannon": "тяжёлая лазерная пушка",
        "token.lower_cannon": "лёгкая лазерная пушка",
    },
    "cs": {
        "label.common": "Běžná ohrožení",
        "label.serious": "Vážná ohrožení",
        "label.continue": "Letíme dál?",
        "choice.end": "skončit",
        "choice.continue": "dál",
        "vote.title": "Průzkumná kampaň — před misí {n} ze 3",
        "vote.voted": "Hlasovalo: {voted}/{crew} · platí shoda, jinak většina; při rovnosti opatrnější volba.",
        "vote.closes": "Hlasování končí {when}.",
        "vote.done": "Posádka odhlasovala.",
        "flown": "Odlétáno",
        "repair.title": "Opravy po misi {n}",
        "repair.none": "Žádné žetony poškození.",
        "repair.squads": "Vyřazené týmy bojových robotů: {n}",
        "repair.rule": "Každý člen posádky při vědomí opraví jeden žeton poškození nebo jeden tým robotů"
        " (nejvýše 2 žetony v zóně).",
        "repair.knocked_out": "V bezvědomí, zotavují se: {names}",
        "repair.chosen": "Vybráno: {chosen}",
        "repair.nobody": "zatím nikdo",
        "repair.default": "Kdo nevybere {when}, dostane výchozí opravu.",
        "repair.squad": "tým bojových robotů",
        "repair.placeholder": "Co opravíte?",
        "line": "{i}. {mission}: {outcome}, ohrožení {threats}, pozorování {observation}",
        "score.title": "Průzkumná kampaň — konečné skóre",
        "score.lost": "💥 Loď byla zničena: kampaň je prohraná (zničilo ji ohrožení {threat}).",
        "score.parts": "Body za ohrožení {threats} · postihy poslední mise {penalties} (poškození {damage},"
        " nejhorší zóna {worst}, v bezvědomí {knocked}, roboti {bots}) · pozorování {observation}",
        "score.total": "**Celkem: {total}**",
        "announce": "🚀 Mise kampaně {n}: **{mission}**, ohrožení {common} / {serious}. Spusťte ji"
        " `/mission start mission:{mission} normal:{common_id} serious:{serious_id}`; loď si nese své poškození.",
        "already": "V tomto kanálu už kampaň běží (/campaign status).",
        "none": "V tomto kanálu není žádná kampaň.",
        "ended_early": "Kampaň skončila před první misí.",
        "not_running": "V tomto kanálu žádná kampaň neběží.",
        "only_host": "Kampaň může ukončit jen její hostitel nebo někdo s oprávněním Spravovat server.",
        "over": "Tato kampaň skončila.",
        "only_crew": "Volit zde může jen posádka kampaně.",
        "not_counted": "Nezapočteno: {reason}.",
        "zone.red": "červená",
        "zone.white": "bílá",
        "zone.blue": "modrá",
        "token.structural": "trup",
        "token.lift": "výtah",
        "token.shield": "štít",
        "token.reactor": "reaktor",
        "token.upper_cannon": "těžké laserové dělo",
        "token.lower_cannon": "lehké laserové dělo",
    },
    "sk": {
        "label.common": "Bežné ohrozenia",
        "label.serious": "Vážne ohrozenia",
        "label.continue": "Letíme ďalej?",
        "choice.end": "skončiť",
        "choice.continue": "ďalej",
        "vote.title": "Prieskumná kampaň — pred misiou {n} z 3",
        "vote.voted": "Hlasovali: {voted}/{crew} · platí zhoda, inak väčšina; pri rovnosti najopatrnejší návrh.",
        "vote.closes": "Hlasovanie sa skončí {when}.",
        "vote.done": "Posádka odhlasovala.",
        "flown": "Odlietané",
        "repair.title": "Opravy po misii {n}",
        "repair.none": "Žiadne žetóny poškodenia.",
        "repair.squads": "Poškodené tímy robotov: {n}",
        "repair.rule": "Každá postava pri vedomí opraví jeden žetón poškodenia alebo jeden tím robotov"
        " (najviac 2 žetóny v jednej časti lode).",
        "repair.knocked_out": "Vyradené postavy sa zotavujú: {names}",
        "repair.chosen": "Vybrané: {chosen}",
        "repair.nobody": "zatiaľ nikto",
        "repair.default": "Kto nevyberie {when}, dostane predvolenú opravu.",
        "repair.squad": "tím robotov",
        "repair.placeholder": "Čo opravíte?",
        "line": "{i}. {mission}: {outcome}, ohrozenia {threats}, vizuálna konfirmácia {observation}",
        "score.title": "Prieskumná kampaň — konečné skóre",
        "score.lost": "💥 Loď bola zničená: kampaň je prehraná (zničilo ju ohrozenie {threat}).",
        "score.parts": "Body za ohrozenia {threats} · postihy poslednej misie {penalties} (poškodenie {damage},"
        " najviac poškodená časť lode {worst}, vyradené postavy {knocked}, tímy robotov {bots})"
        " · vizuálna konfirmácia {observation}",
        "score.total": "**Spolu: {total}**",
        "announce": "🚀 Misia kampane {n}: **{mission}**, ohrozenia {common} / {serious}. Spustite ju"
        " `/mission start mission:{mission} normal:{common_id} serious:{serious_id}`; loď si nesie svoje poškodenie.",
        "already": "V tomto kanáli už kampaň beží (/campaign status).",
        "none": "V tomto kanáli nie je žiadna kampaň.",
        "ended_early": "Kampaň sa skončila pred prvou misiou.",
        "not_running": "V tomto kanáli nebeží žiadna kampaň.",
        "only_host": "Kampaň môže ukončiť len jej hostiteľ alebo niekto s oprávnením Spravovať server.",
        "over": "Táto kampaň sa skončila.",
        "only_crew": "Voliť tu môže len posádka kampane.",
        "not_counted": "Nezapočítané: {reason}.",
        "zone.red": "červená",
        "zone.white": "biela",
        "zone.blue": "modrá",
        "token.structural": "trup",
        "token.lift": "výťah",
        "token.shield": "štít",
        "token.reactor": "reaktor",
        "token.upper_cannon": "ťažké laserové delo",
        "token.lower_cannon": "ľahké laserové delo",
    },
}


def tx(lang: str, text_key: str, /, **params: Any) -> str:
    return lookup(TEXT, lang, text_key, **params)


def option_label(lang: str, kind: str, option: str) -> str:
    """A vote option in words: a difficulty from the shared catalogue, or end / go on."""
    if kind == "continue":
        return tx(lang, f"choice.{option}")
    return t(lang, f"difficulty.{option}")
