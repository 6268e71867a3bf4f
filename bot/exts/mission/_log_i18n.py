"""The captain's log in the flight's language, from the engine's structured resolution events.

The engine gives each log entry a `kind` and its parameters next to a neutral English `text`
(engine/log_text.py is the English reference).  English uses that text as is; Russian and Czech
have a template for every event kind the engine emits (a test scans the engine for `m.emit(...)`
and fails on a kind without one).  Vocabulary follows the rulebooks: Russian (Mosigra/Magellan)
сектор, отсек, палуба, боевые роботы, визуальное подтверждение, техническое обслуживание; Czech
from the Slovak edition zóna, lokalita, paluba, bojoví roboti, vizuální potvrzení, údržba počítače.
Stations are named in the nominative inside quotes, so no template has to decline them.  Free
English text the engine puts in a field (a cause, a reason) is translated when known and left as is
otherwise.  A template that fails on an unexpected event falls back to the English text, so the log
is always complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import english_threat_names, threat_name, threat_text
from engine.threats.catalog import card_or_none

Event = dict[str, Any]
Template = Callable[[Event], str]

_DECK = {
    "ru": {"upper": "верхний", "lower": "нижний"},
    "cs": {"upper": "horní", "lower": "dolní"},
}
_ZONE_ADJ = {  # masculine (отсек) / feminine (lokalita, zóna)
    "ru": {"red": "красный", "white": "белый", "blue": "синий"},
    "cs": {"red": "červená", "white": "bílá", "blue": "modrá"},
}
_ZONE_NAME = {
    "ru": {"red": "красный сектор", "white": "белый сектор", "blue": "синий сектор"},
    "cs": {"red": "červená zóna", "white": "bílá zóna", "blue": "modrá zóna"},
}
_CS_ZONE_ACC = {"red": "červenou zónu", "white": "bílou zónu", "blue": "modrou zónu"}
_SPACE = {"ru": "космос (перехватчики)", "cs": "vesmír (stíhačky)"}
_STATION_WORD = {"ru": "отсек", "cs": "lokalita"}

_PHRASES: dict[str, dict[str, str]] = {
    "ru": {
        # how
        "red arrow": "красная стрелка",
        "blue arrow": "синяя стрелка",
        "gravolift": "гравитационный лифт",
        "heroic move": "героическое перемещение",
        "interceptors launched": "вылет на перехватчиках",
        "return from space": "возвращение из космоса",
        "battlebots": "боевые роботы",
        # causes
        "computer not maintained": "компьютер не обслужен",
        "contamination": "заражение",
        "gravolift damaged": "лифт повреждён",
        "gravolift already used": "лифт уже занят",
        "returning from space": "возвращение из космоса",
        # bots
        "reactivated": "снова в строю",
        "picked up": "взяты",
        "picked up disabled": "взяты (выведены из строя)",
        # no_effect reasons
        "already at that end of the ship": "уже у этого края корабля",
        "system broken by a malfunction": "система выведена из строя неисправностью",
        "cannon already fired this turn": "пушка уже стреляла в этом ходу",
        "no energy in the reactor": "в реакторе нет энергии",
        "no fuel capsules left": "топливных баков не осталось",
        "no battlebots to take or reactivate": "нет боевых роботов, которых можно взять или вернуть в строй",
        "no active battlebots": "нет боеспособных боевых роботов",
        "no intruder here": "здесь нет нарушителя",
        "no rockets aboard": "на борту нет ракет",
        "no battlebots stored there": "там нет боевых роботов",
        "rocket": "ракета",
    },
    "cs": {
        "red arrow": "červená šipka",
        "blue arrow": "modrá šipka",
        "gravolift": "výtah",
        "heroic move": "hrdinský pohyb",
        "interceptors launched": "vzlet ve stíhačkách",
        "return from space": "návrat z vesmíru",
        "battlebots": "bojoví roboti",
        "computer not maintained": "neudržovaný počítač",
        "contamination": "zamoření",
        "gravolift damaged": "výtah je poškozen",
        "gravolift already used": "výtah už byl použit",
        "returning from space": "návrat z vesmíru",
        "reactivated": "znovu aktivováni",
        "picked up": "vzati",
        "picked up disabled": "vzati (vyřazení)",
        "already at that end of the ship": "už je na tom konci lodi",
        "system broken by a malfunction": "systém vyřadila porucha",
        "cannon already fired this turn": "dělo už v tomto kole střílelo",
        "no energy in the reactor": "v reaktoru není energie",
        "no fuel capsules left": "nezbyl žádný palivový článek",
        "no battlebots to take or reactivate": "nejsou tu bojoví roboti k vzetí ani aktivaci",
        "no active battlebots": "žádní bojeschopní roboti",
        "no intruder here": "není tu žádný vetřelec",
        "no rockets aboard": "na palubě nejsou rakety",
        "no battlebots stored there": "nejsou tam uloženi bojoví roboti",
        "rocket": "raketa",
    },
}
_TOKEN = {
    "ru": {
        "structural": "повреждение корпуса",
        "lift": "повреждение лифта",
        "shield": "повреждение щита",
        "reactor": "повреждение реактора",
        "upper_cannon": "повреждение верхней пушки",
        "lower_cannon": "повреждение нижней пушки",
    },
    "cs": {
        "structural": "poškození trupu",
        "lift": "poškození výtahu",
        "shield": "poškození štítu",
        "reactor": "poškození reaktoru",
        "upper_cannon": "poškození horního děla",
        "lower_cannon": "poškození dolního děla",
    },
}
_WEAPON = {  # the rulebooks' weapon names (Russian §3.3; Czech/Slovak edition)
    "ru": {
        "heavy laser": "тяжёлая лазерная пушка",
        "light laser": "лёгкая лазерная пушка",
        "pulse cannon": "импульсная пушка",
        "rocket": "ракета",
        "interceptors": "перехватчики",
    },
    "cs": {
        "heavy laser": "těžký laser",
        "light laser": "lehký laser",
        "pulse cannon": "pulzní dělo",
        "rocket": "raketa",
        "interceptors": "stíhačky",
    },
}
_SYSTEM = {
    "ru": {"shield": "щит", "reactor": "реактор", "cannon": "пушка", "laser": "лазер"},
    "cs": {"shield": "štít", "reactor": "reaktor", "cannon": "dělo", "laser": "laser"},
}


def _threat(e: Event, key: str = "threat", *, lang: str) -> str:
    """A threat card by its name in `lang` and its id: «Эсминец (E1-02)»."""
    tid = str(e.get(key) or "")
    return f"{threat_name(lang, tid)} ({tid})" if card_or_none(tid) else tid


def _thr_ru(e: Event) -> str:
    return _threat(e, lang="ru")


def _thr_cs(e: Event) -> str:
    return _threat(e, lang="cs")


def _card_text(lang: str, e: Event) -> str:
    """The X/Y/Z text of the card in `lang` (the engine's English text for an unknown card)."""
    return threat_text(lang, str(e.get("threat")), str(e.get("letter"))) or str(e.get("card_text", ""))


def _tr(lang: str, text: Any) -> str:
    value = str(text) if text is not None else "?"
    return _PHRASES[lang].get(value, value)


def _st(lang: str, station: Any) -> str:
    """A station in the nominative, quoted: «верхний красный отсек» / „horní červená lokalita“."""
    if station == "space":
        return _SPACE[lang]
    if not isinstance(station, str) or "_" not in station:
        return str(station or "?")
    deck, zone = station.split("_", 1)
    words = f"{_DECK[lang].get(deck, deck)} {_ZONE_ADJ[lang].get(zone, zone)} {_STATION_WORD[lang]}"
    return f"«{words}»" if lang == "ru" else f"„{words}“"


def _zone(lang: str, zone: Any) -> str:
    return _ZONE_NAME[lang].get(str(zone), str(zone))


def _place(lang: str, where: Any) -> str:
    """'reactor:red' / 'shield:white' (energy fields) or a station name."""
    text = str(where or "?")
    if ":" in text:
        system, zone = text.split(":", 1)
        return f"{_SYSTEM[lang].get(system, system)} ({_zone(lang, zone)})"
    return _st(lang, text)


def _token(lang: str, token: Any) -> str:
    return _TOKEN[lang].get(str(token), str(token).replace("_", " "))


def _weapon(lang: str, weapon: Any) -> str:
    """'heavy laser red' -> «тяжёлая лазерная пушка (красный сектор)»; 'E1-10 explosion' names the card."""
    text = str(weapon or "?")
    if text.endswith(" explosion"):
        blast = "взрыв " if lang == "ru" else "výbuch "
        return blast + _threat({"threat": text.removesuffix(" explosion")}, lang=lang)
    for english, local in _WEAPON[lang].items():
        if text.startswith(english):
            text = local + text[len(english) :]
            break
    for colour in ("red", "white", "blue"):
        text = text.replace(f" {colour}", f" ({_zone(lang, colour)})")
    return text


def _cause(lang: str, cause: Any) -> str:
    text = str(cause or "?")
    if text.startswith("slime:"):
        return _threat({"threat": text[6:]}, lang=lang)
    if text.startswith("zone ") and text.endswith(" destroyed"):
        zone = _zone(lang, text.split()[1])
        return zone + (" уничтожен" if lang == "ru" else " je zničena")
    if text.endswith(" destroyed"):
        tid = text.removesuffix(" destroyed")
        return _threat({"threat": tid}, lang=lang) + (" уничтожена" if lang == "ru" else " zničeno")
    if card_or_none(text):
        return _threat({"threat": text}, lang=lang)
    if text in english_threat_names():  # a few engine causes name the card ("Behemoth")
        return _threat({"threat": english_threat_names()[text]}, lang=lang)
    return _tr(lang, text)


def _opt(value: Any, text: str) -> str:
    return text if value else ""


_RU: dict[str, Template] = {
    "threat_appears": lambda e: (
        f"Появляется {_thr_ru(e)} на траектории {e['track']}"
        + (f", {_zone('ru', e.get('zone'))}" if e.get("zone") else f", {_st('ru', e.get('station'))}")
    ),
    "move": lambda e: (
        f"{e['player']} перемещается: {_st('ru', e['frm'])} → {_st('ru', e['to'])} ({_tr('ru', e['how'])})"
    ),
    "delay": lambda e: (
        f"{e['player']} задерживается: действие хода {e['delayed_turn']} сдвигается вправо"
        + _opt(e.get("lost_card"), f", карта «{e.get('lost_card')}» выпадает с поля")
        + f" ({_cause('ru', e['cause'])})"
    ),
    "knocked_out": lambda e: f"{e['player']} без сознания: {_st('ru', e['station'])} ({_cause('ru', e['cause'])})",
    "no_effect": lambda e: f"Действие {e['action']} игрока {e['player']} без эффекта: {_tr('ru', e['reason'])}",
    "fire": lambda e: (
        f"{e['player']} стреляет из пушки: {_st('ru', e['station'])}" + _opt(e["heroic"], " (героически)")
    ),
    "energy": lambda e: (
        f"{e['player']} перекачивает {e['amount']} энергии: {_place('ru', e['frm'])} → {_place('ru', e['to'])}"
        + _opt(e.get("heroic_bonus"), f" (+{e.get('heroic_bonus')} героически)")
    ),
    "refuel": lambda e: (
        f"{e['player']} дозаправляет центральный реактор (+{e['amount']}"
        + _opt(e.get("heroic_bonus"), f", +{e.get('heroic_bonus')} героически")
        + f"); топливных баков осталось: {e['capsules_left']}"
    ),
    "maintenance": lambda e: f"{e['player']} проводит техническое обслуживание компьютера (фаза {e['phase']})",
    "bots": lambda e: f"{e['player']}: боевые роботы {_tr('ru', e['what'])}",
    "observe": lambda e: f"{e['player']} проводит визуальное подтверждение ({e['count']} в этом ходу)",
    "rocket_launched": lambda e: f"{e['player']} запускает ракету; на борту осталось {e['rockets_left']}",
    "interceptors": lambda e: f"{e['player']} остаётся в космосе на перехватчиках" + _opt(e["heroic"], " (героически)"),
    "repair_attempt": lambda e: f"{e['player']} устраняет {_thr_ru(e)} ({e['count']} в этом ходу)",
    "threat_hit": lambda e: (
        f"{_thr_ru(e)} получает {e['amount']} урона от {e.get('by') or 'корабля'} ({_tr('ru', e.get('how'))})"
    ),
    "threat_destroyed": lambda e: (
        f"{_thr_ru(e)} уничтожена" + _opt(e.get("by"), f" ({e.get('by')})") + f" ({_tr('ru', e.get('how'))})"
    ),
    "returns_fire": lambda e: f"{_thr_ru(e)} отвечает огнём: боевые роботы игрока {e['player']} выведены из строя",
    "no_target": lambda e: f"{_weapon('ru', e['weapon'])}: нет цели",
    "rocket_fizzles": lambda e: f"Ракета долетает до {_thr_ru(e)} и ничего не делает",
    "cryoshield": lambda e: f"Криощит {_thr_ru(e)} поглощает {e['absorbed']} и исчезает",
    "threat_damage": lambda e: (
        f"{_thr_ru(e)}: {e['total']} урона ({', '.join(_weapon('ru', w) for w in e['weapons'])}), "
        f"щит {e['shield']}, повреждений {e['damage']}"
    ),
    "retaliation": lambda e: f"{_thr_ru(e)} наносит ответный удар по всем секторам",
    "breakup": lambda e: f"{_thr_ru(e)} распадается (пройдено точек распада: {e['breakpoints']})",
    "threat_action": lambda e: f"{_thr_ru(e)} выполняет действие {e['letter']}: {_card_text('ru', e)}",
    "threat_moved": lambda e: f"{_thr_ru(e)} движется с клетки {e['frm']} на клетку {e['to']}",
    "threat_survived": lambda e: f"{_thr_ru(e)} выполнила действие Z и уходит",
    "attack": lambda e: (
        f"{_cause('ru', e['source'])} атакует {_zone('ru', e['zone'])} силой {e['amount']}: "
        f"щит поглощает {e['absorbed']}, повреждений {e['damage']}"
    ),
    "damage_token": lambda e: (
        f"{_zone('ru', e['zone']).capitalize()} получает фишку «{_token('ru', e['token'])}» (всего {e['total']})"
    ),
    "zone_destroyed": lambda e: f"{_zone('ru', e['zone']).capitalize()} получает седьмое повреждение и уничтожен",
    "ship_lost": lambda e: f"{_thr_ru(e)} уничтожает корабль",
    "mission_lost": lambda e: f"Задание провалено: {_cause('ru', e['cause'])}",
    "computer_ok": lambda e: f"Проверка бортового компьютера, фаза {e['phase']}: обслужен",
    "computer_not_maintained": lambda e: (
        f"Проверка бортового компьютера, фаза {e['phase']}: не обслужен, все на борту задерживаются"
    ),
    "phase_end": lambda e: f"Конец фазы {e['phase']}: лучшее визуальное подтверждение {e['observers']}",
    "hyperspace_jump": lambda e: "Корабль уходит в гиперпространство",
    "threat_repairs": lambda e: f"{_thr_ru(e)} восстанавливает {e['amount']} урона",
    "self_damage": lambda e: f"{_thr_ru(e)} получает {e['amount']} урона от собственной атаки",
    "threat_speed": lambda e: f"{_thr_ru(e)}: скорость теперь {e['speed']}",
    "threat_shield": lambda e: f"{_thr_ru(e)}: щит теперь {e['shield']}",
    "threat_visible": lambda e: f"{_thr_ru(e)} становится видимой",
    "threat_aura": lambda e: f"Эффект {_thr_ru(e)} теперь действует на другие угрозы",
    "threat_breakpoint": lambda e: f"{_thr_ru(e)}: пройдено точек распада: {e['passed']}",
    "energy_lost": lambda e: f"{_thr_ru(e)} отнимает {e['amount']} энергии: {_place('ru', e['where'])}",
    "energy_moved": lambda e: f"{_thr_ru(e)} перекачивает {e['amount']} энергии в щит, лишнее: {e['overflow']}",
    "threat_moves": lambda e: f"{_thr_ru(e)} перемещается: {_st('ru', e['frm'])} → {_st('ru', e['to'])}",
    "threat_stays": lambda e: f"{_thr_ru(e)} остаётся: {_st('ru', e['station'])}",
    "threat_grows_up": lambda e: f"{_thr_ru(e)} вырастает",
    "rocket_destroyed": lambda e: f"{_thr_ru(e)} уничтожает ракету; осталось {e['rockets_left']}",
    "bots_disabled": lambda e: f"{_thr_ru(e)} выводит из строя боевых роботов: {_st('ru', e['station'])}",
    "fuel_destroyed": lambda e: f"{_thr_ru(e)} уничтожает топливный бак; осталось {e['capsules_left']}",
    "slime_spreads": lambda e: f"{_thr_ru(e)} растекается: {_st('ru', e['frm'])} → {_st('ru', e['to'])}",
    "slime_blocked": lambda e: f"{_thr_ru(e)} не может растечься из отсека {_st('ru', e['frm'])}",
    "damage_doubled": lambda e: (
        f"{_thr_ru(e)}: повреждения удваиваются ({', '.join(_zone('ru', z) for z in e['zones'])})"
    ),
    "no_effect_threat": lambda e: f"Действие {_thr_ru(e)} без эффекта ({_tr('ru', e.get('reason'))})",
}

_CS: dict[str, Template] = {
    "threat_appears": lambda e: (
        f"Objevuje se {_thr_cs(e)} na trajektorii {e['track']}"
        + (f", {_zone('cs', e.get('zone'))}" if e.get("zone") else f", {_st('cs', e.get('station'))}")
    ),
    "move": lambda e: (
        f"{e['player']} se přesouvá: {_st('cs', e['frm'])} → {_st('cs', e['to'])} ({_tr('cs', e['how'])})"
    ),
    "delay": lambda e: (
        f"{e['player']} má zpoždění: akce kola {e['delayed_turn']} se posouvá doprava"
        + _opt(e.get("lost_card"), f", karta „{e.get('lost_card')}“ padá z desky")
        + f" ({_cause('cs', e['cause'])})"
    ),
    "knocked_out": lambda e: f"{e['player']} je vyřazen(a): {_st('cs', e['station'])} ({_cause('cs', e['cause'])})",
    "no_effect": lambda e: f"Akce {e['action']} hráče {e['player']} nemá účinek: {_tr('cs', e['reason'])}",
    "fire": lambda e: f"{e['player']} střílí z děla: {_st('cs', e['station'])}" + _opt(e["heroic"], " (hrdinsky)"),
    "energy": lambda e: (
        f"{e['player']} přesouvá {e['amount']} energie: {_place('cs', e['frm'])} → {_place('cs', e['to'])}"
        + _opt(e.get("heroic_bonus"), f" (+{e.get('heroic_bonus')} hrdinsky)")
    ),
    "refuel": lambda e: (
        f"{e['player']} doplňuje centrální reaktor (+{e['amount']}"
        + _opt(e.get("heroic_bonus"), f", +{e.get('heroic_bonus')} hrdinsky")
        + f"); zbývá palivových článků: {e['capsules_left']}"
    ),
    "maintenance": lambda e: f"{e['player']} provádí údržbu počítače (fáze {e['phase']})",
    "bots": lambda e: f"{e['player']}: bojoví roboti {_tr('cs', e['what'])}",
    "observe": lambda e: f"{e['player']} provádí vizuální potvrzení ({e['count']} v tomto kole)",
    "rocket_launched": lambda e: f"{e['player']} odpaluje raketu; na palubě zbývá {e['rockets_left']}",
    "interceptors": lambda e: f"{e['player']} zůstává ve vesmíru se stíhačkami" + _opt(e["heroic"], " (hrdinsky)"),
    "repair_attempt": lambda e: f"{e['player']} opravuje {_thr_cs(e)} ({e['count']} v tomto kole)",
    "threat_hit": lambda e: (
        f"{_thr_cs(e)} dostává zásah {e['amount']} od {e.get('by') or 'lodi'} ({_tr('cs', e.get('how'))})"
    ),
    "threat_destroyed": lambda e: (
        f"{_thr_cs(e)} je zničeno" + _opt(e.get("by"), f" ({e.get('by')})") + f" ({_tr('cs', e.get('how'))})"
    ),
    "returns_fire": lambda e: f"{_thr_cs(e)} opětuje palbu: bojoví roboti hráče {e['player']} jsou vyřazeni",
    "no_target": lambda e: f"{_weapon('cs', e['weapon'])}: žádný cíl",
    "rocket_fizzles": lambda e: f"Raketa doletí k {_thr_cs(e)} a nic nezpůsobí",
    "cryoshield": lambda e: f"Kryoštít {_thr_cs(e)} pohltí {e['absorbed']} a zmizí",
    "threat_damage": lambda e: (
        f"{_thr_cs(e)}: zásah {e['total']} ({', '.join(_weapon('cs', w) for w in e['weapons'])}), "
        f"štít {e['shield']}, poškození {e['damage']}"
    ),
    "retaliation": lambda e: f"{_thr_cs(e)} oplácí útok na všechny zóny",
    "breakup": lambda e: f"{_thr_cs(e)} se rozpadá (prošlo body rozpadu: {e['breakpoints']})",
    "threat_action": lambda e: f"{_thr_cs(e)} provádí akci {e['letter']}: {_card_text('cs', e)}",
    "threat_moved": lambda e: f"{_thr_cs(e)} se posouvá z pole {e['frm']} na pole {e['to']}",
    "threat_survived": lambda e: f"{_thr_cs(e)} provedlo akci Z a odlétá",
    "attack": lambda e: (
        f"{_cause('cs', e['source'])} útočí na {_CS_ZONE_ACC.get(e['zone'], e['zone'])} silou {e['amount']}: "
        f"štít pohltí {e['absorbed']}, poškození {e['damage']}"
    ),
    "damage_token": lambda e: (
        f"{_zone('cs', e['zone']).capitalize()} dostává žeton „{_token('cs', e['token'])}“ (celkem {e['total']})"
    ),
    "zone_destroyed": lambda e: f"{_zone('cs', e['zone']).capitalize()} potřebuje sedmý žeton poškození: je zničena",
    "ship_lost": lambda e: f"{_thr_cs(e)} ničí loď",
    "mission_lost": lambda e: f"Mise ztracena: {_cause('cs', e['cause'])}",
    "computer_ok": lambda e: f"Kontrola počítače, fáze {e['phase']}: udržován",
    "computer_not_maintained": lambda e: (
        f"Kontrola počítače, fáze {e['phase']}: neudržován, všichni na palubě mají zpoždění"
    ),
    "phase_end": lambda e: f"Konec fáze {e['phase']}: nejlepší vizuální potvrzení {e['observers']}",
    "hyperspace_jump": lambda e: "Loď vstupuje do hyperprostoru",
    "threat_repairs": lambda e: f"{_thr_cs(e)} si opravuje {e['amount']} poškození",
    "self_damage": lambda e: f"{_thr_cs(e)} utrpí {e['amount']} poškození vlastním útokem",
    "threat_speed": lambda e: f"{_thr_cs(e)}: rychlost je nyní {e['speed']}",
    "threat_shield": lambda e: f"{_thr_cs(e)}: štít je nyní {e['shield']}",
    "threat_visible": lambda e: f"{_thr_cs(e)} se zviditelňuje",
    "threat_aura": lambda e: f"Účinek {_thr_cs(e)} nyní platí i pro ostatní ohrožení",
    "threat_breakpoint": lambda e: f"{_thr_cs(e)}: prošlo body rozpadu: {e['passed']}",
    "energy_lost": lambda e: f"{_thr_cs(e)} odčerpává {e['amount']} energie: {_place('cs', e['where'])}",
    "energy_moved": lambda e: f"{_thr_cs(e)} přesouvá {e['amount']} energie do štítu, přebytek {e['overflow']}",
    "threat_moves": lambda e: f"{_thr_cs(e)} se přesouvá: {_st('cs', e['frm'])} → {_st('cs', e['to'])}",
    "threat_stays": lambda e: f"{_thr_cs(e)} zůstává: {_st('cs', e['station'])}",
    "threat_grows_up": lambda e: f"{_thr_cs(e)} dospívá",
    "rocket_destroyed": lambda e: f"{_thr_cs(e)} ničí raketu; zbývá {e['rockets_left']}",
    "bots_disabled": lambda e: f"{_thr_cs(e)} vyřazuje bojové roboty: {_st('cs', e['station'])}",
    "fuel_destroyed": lambda e: f"{_thr_cs(e)} ničí palivový článek; zbývá {e['capsules_left']}",
    "slime_spreads": lambda e: f"{_thr_cs(e)} se šíří: {_st('cs', e['frm'])} → {_st('cs', e['to'])}",
    "slime_blocked": lambda e: f"{_thr_cs(e)} se nemůže šířit z lokality {_st('cs', e['frm'])}",
    "damage_doubled": lambda e: (
        f"{_thr_cs(e)}: poškození se zdvojnásobuje ({', '.join(_zone('cs', z) for z in e['zones'])})"
    ),
    "no_effect_threat": lambda e: f"Akce {_thr_cs(e)} nemá účinek ({_tr('cs', e.get('reason'))})",
}

TEMPLATES: dict[str, dict[str, Template]] = {"ru": _RU, "cs": _CS}


def describe(lang: str, entry: Event) -> str:
    """One log line in `lang`; the engine's English text when no template fits."""
    template = TEMPLATES.get(lang, {}).get(str(entry.get("kind")))
    if template is not None:
        try:
            return template(entry)
        except (KeyError, TypeError, AttributeError):
            pass
    return str(entry.get("text", ""))


def cause_text(lang: str, cause: Any) -> str:
    """Why the ship was lost ('E1-02', 'zone red destroyed') for the result and the logbook."""
    if lang in TEMPLATES:
        return _cause(lang, cause)
    text = str(cause or "?")
    card = card_or_none(text)
    return f"{card.name} ({text})" if card else text
