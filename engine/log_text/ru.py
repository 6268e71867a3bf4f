"""Russian captain's log: one template per resolution event, one phrase per code.

Vocabulary follows the rulebooks: Russian (Mosigra/Magellan) сектор, отсек, палуба, боевые роботы,
визуальное подтверждение, техническое обслуживание.  Stations are named in the nominative inside
quotes, so no template has to decline them.
"""

from __future__ import annotations

from engine.log_text.base import Table, Template, Words, opt, thr, word
from engine.vocab import EventKind

MOVE_HOW = {
    "red_arrow": "красная стрелка",
    "blue_arrow": "синяя стрелка",
    "gravolift": "гравитационный лифт",
    "heroic_move": "героическое перемещение",
    "launch": "вылет на перехватчиках",
    "return": "возвращение из космоса",
}
DELAY_CAUSE = {
    "computer": "компьютер не обслужен",
    "lift_damaged": "лифт повреждён",
    "lift_busy": "лифт уже занят",
    "return_from_space": "возвращение из космоса",
}
NO_EFFECT = {
    "hull_end": "уже у этого края корабля",
    "system_broken": "система выведена из строя неисправностью",
    "cannon_fired": "пушка уже стреляла в этом ходу",
    "no_energy": "в реакторе нет энергии",
    "no_fuel": "топливных баков не осталось",
    "no_bots_to_take": "нет боевых роботов, которых можно взять или вернуть в строй",
    "no_active_bots": "нет боеспособных боевых роботов",
    "no_intruder": "здесь нет нарушителя",
    "space_taken": "в космосе уже есть другой игрок",
    "no_rocket": "ракет не осталось",
    "rocket_fired": "ракета уже запущена в этом ходу",
    "already_full": "пополнять нечего, всё и так полно",
    "knocked_out": "игрок без сознания, карта не разыгрывается",
}
THREAT_NO_EFFECT = {
    "condition_unmet": "условие не выполнено",
    "no_rockets": "на борту нет ракет",
    "no_stored_bots": "там нет боевых роботов",
}
HIT_HOW = {
    "damage": "повреждения",
    "explosion": "взрыв",
    "self_damage": "собственная атака",
    "rocket_lost": "потеряна ракета",
    "no_rockets": "на борту нет ракет",
    "repair": "ремонт",
    "battlebots": "боевые роботы",
    "interceptors": "перехватчики",
    "all_repaired": "устранено во всех отсеках",
}
WEAPON = {
    "heavy": "тяжёлая лазерная пушка",
    "light": "лёгкая лазерная пушка",
    "pulse": "импульсная пушка",
    "rocket": "ракета",
    "interceptors": "перехватчики",
    "explosion": "взрыв",
}
BOTS = {"reactivated": "снова в строю", "picked_up": "взяты", "picked_up_disabled": "взяты (выведены из строя)"}
TOKEN = {
    "structural": "повреждение корпуса",
    "lift": "повреждение лифта",
    "shield": "повреждение щита",
    "reactor": "повреждение реактора",
    "upper_cannon": "повреждение верхней пушки",
    "lower_cannon": "повреждение нижней пушки",
}
SYSTEM = {"shield": "щит", "reactor": "реактор"}
DECK = {"upper": "верхний", "lower": "нижний"}
ZONE_ADJ = {"red": "красный", "white": "белый", "blue": "синий"}
SPACE = "космос (перехватчики)"
STATION_WORD = "отсек"
ZONE_LOST = "уничтожен"
ZONE = {"red": "красный сектор", "white": "белый сектор", "blue": "синий сектор"}


W = Words(
    zone=ZONE,
    deck=DECK,
    zone_adj=ZONE_ADJ,
    station_word=STATION_WORD,
    quotes=("«", "»"),
    space=SPACE,
    system=SYSTEM,
    token_names=TOKEN,
    weapons=WEAPON,
    delay_cause=DELAY_CAUSE,
    zone_lost=ZONE_LOST,
)
_thr, _opt = thr, opt
_zone, _st, _store, _token = W.zone_name, W.station, W.store, W.token
_weapon, _cause, _lost = W.weapon, W.cause, W.lost


TEMPLATES: dict[EventKind, Template] = {
    "threat_appears": lambda e, n: (
        f"Появляется {_thr(e, n)} на траектории {e['track']}"
        + (f", {_zone(e.get('zone'))}" if e.get("zone") else f", {_st(e.get('station'))}")
    ),
    "move": lambda e, n: f"{e['player']} перемещается: {_st(e['frm'])} → {_st(e['to'])} ({word(MOVE_HOW, e['how'])})",
    "delay": lambda e, n: (
        f"{e['player']} задерживается: действие хода {e['delayed_turn']} сдвигается вправо"
        + _opt(e.get("lost_card"), f", карта «{e.get('lost_card')}» выпадает с поля")
        + f" ({_cause(e, n)})"
    ),
    "knocked_out": lambda e, n: f"{e['player']} без сознания: {_st(e['station'])} ({_thr(e, n, 'cause')})",
    "no_effect": lambda e, n: (
        f"Действие {e['action']} игрока {e['player']} без эффекта: {word(NO_EFFECT, e['reason'])}"
    ),
    "fire": lambda e, n: f"{e['player']} стреляет из пушки: {_st(e['station'])}" + _opt(e["heroic"], " (героически)"),
    "energy": lambda e, n: (
        f"{e['player']} перекачивает {e['amount']} энергии: "
        f"{_store(e['src'], e['src_zone'])} → {_store(e['dst'], e['dst_zone'])}"
        + _opt(e.get("heroic_bonus"), f" (+{e.get('heroic_bonus')} героически)")
    ),
    "refuel": lambda e, n: (
        f"{e['player']} дозаправляет центральный реактор (+{e['amount']}"
        + _opt(e.get("heroic_bonus"), f", +{e.get('heroic_bonus')} героически")
        + f"); топливных баков осталось: {e['capsules_left']}"
    ),
    "maintenance": lambda e, n: f"{e['player']} проводит техническое обслуживание компьютера (фаза {e['phase']})",
    "bots": lambda e, n: f"{e['player']}: боевые роботы {word(BOTS, e['what'])}",
    "observe": lambda e, n: f"{e['player']} проводит визуальное подтверждение ({e['count']} в этом ходу)",
    "rocket_launched": lambda e, n: f"{e['player']} запускает ракету; на борту осталось {e['rockets_left']}",
    "interceptors": lambda e, n: (
        f"{e['player']} остаётся в космосе на перехватчиках" + _opt(e["heroic"], " (героически)")
    ),
    "repair_attempt": lambda e, n: f"{e['player']} устраняет {_thr(e, n)} ({e['count']} в этом ходу)",
    "threat_hit": lambda e, n: (
        f"{_thr(e, n)} получает {e['amount']} урона от {e.get('by') or 'корабля'} ({word(HIT_HOW, e.get('how'))})"
    ),
    "threat_destroyed": lambda e, n: (
        f"{_thr(e, n)} уничтожена" + _opt(e.get("by"), f" ({e.get('by')})") + f" ({word(HIT_HOW, e.get('how'))})"
    ),
    "returns_fire": lambda e, n: f"{_thr(e, n)} отвечает огнём: боевые роботы игрока {e['player']} выведены из строя",
    "no_target": lambda e, n: f"{_weapon(e, n, e['weapon'])}: нет цели",
    "rocket_fizzles": lambda e, n: f"Ракета долетает до {_thr(e, n)} и ничего не делает",
    "cryoshield": lambda e, n: f"Криощит {_thr(e, n)} поглощает {e['absorbed']} и исчезает",
    "threat_damage": lambda e, n: (
        f"{_thr(e, n)}: {e['total']} урона ({', '.join(_weapon(e, n, w) for w in e['weapons'])}), "
        f"щит {e['shield']}, повреждений {e['damage']}"
    ),
    "retaliation": lambda e, n: f"{_thr(e, n)} наносит ответный удар по всем секторам",
    "breakup": lambda e, n: f"{_thr(e, n)} распадается (пройдено точек распада: {e['breakpoints']})",
    "threat_action": lambda e, n: (
        f"{_thr(e, n)} выполняет действие {e['letter']}: {n.card_text(e['threat'], e['letter'])}"
    ),
    "threat_moved": lambda e, n: f"{_thr(e, n)} движется с клетки {e['frm']} на клетку {e['to']}",
    "threat_survived": lambda e, n: f"{_thr(e, n)} выполнила действие Z и уходит",
    "attack": lambda e, n: (
        f"{_thr(e, n, 'source')} атакует {_zone(e['zone'])} силой {e['amount']}: "
        f"щит поглощает {e['absorbed']}, повреждений {e['damage']}"
    ),
    "damage_token": lambda e, n: (
        f"{_zone(e['zone']).capitalize()} получает фишку «{_token(e['token'])}» (всего {e['total']})"
    ),
    "zone_destroyed": lambda e, n: f"{_zone(e['zone']).capitalize()} получает седьмое повреждение и уничтожен",
    "ship_lost": lambda e, n: f"{_thr(e, n)} уничтожает корабль",
    "mission_lost": lambda e, n: f"Задание провалено: {_lost(e, n)}",
    "computer_ok": lambda e, n: f"Проверка бортового компьютера, фаза {e['phase']}: обслужен",
    "computer_not_maintained": lambda e, n: (
        f"Проверка бортового компьютера, фаза {e['phase']}: не обслужен, все на борту задерживаются"
    ),
    "phase_end": lambda e, n: f"Конец фазы {e['phase']}: лучшее визуальное подтверждение {e['observers']}",
    "hyperspace_jump": lambda e, n: "Корабль уходит в гиперпространство",
    "threat_repairs": lambda e, n: f"{_thr(e, n)} восстанавливает {e['amount']} урона",
    "self_damage": lambda e, n: f"{_thr(e, n)} получает {e['amount']} урона от собственной атаки",
    "threat_speed": lambda e, n: f"{_thr(e, n)}: скорость теперь {e['speed']}",
    "threat_shield": lambda e, n: f"{_thr(e, n)}: щит теперь {e['shield']}",
    "threat_visible": lambda e, n: f"{_thr(e, n)} становится видимой",
    "threat_aura": lambda e, n: f"Эффект {_thr(e, n)} теперь действует на другие угрозы",
    "threat_breakpoint": lambda e, n: f"{_thr(e, n)}: пройдено точек распада: {e['passed']}",
    "energy_lost": lambda e, n: f"{_thr(e, n)} отнимает {e['amount']} энергии: {_store(e['system'], e['zone'])}",
    "energy_moved": lambda e, n: f"{_thr(e, n)} перекачивает {e['amount']} энергии в щит, лишнее: {e['overflow']}",
    "threat_moves": lambda e, n: f"{_thr(e, n)} перемещается: {_st(e['frm'])} → {_st(e['to'])}",
    "threat_stays": lambda e, n: f"{_thr(e, n)} остаётся: {_st(e['station'])}",
    "threat_grows_up": lambda e, n: f"{_thr(e, n)} вырастает",
    "rocket_destroyed": lambda e, n: f"{_thr(e, n)} уничтожает ракету; осталось {e['rockets_left']}",
    "bots_disabled": lambda e, n: f"{_thr(e, n)} выводит из строя боевых роботов: {_st(e['station'])}",
    "fuel_destroyed": lambda e, n: f"{_thr(e, n)} уничтожает топливный бак; осталось {e['capsules_left']}",
    "slime_spreads": lambda e, n: f"{_thr(e, n)} растекается: {_st(e['frm'])} → {_st(e['to'])}",
    "slime_blocked": lambda e, n: f"{_thr(e, n)} не может растечься из отсека {_st(e['frm'])}",
    "damage_doubled": lambda e, n: f"{_thr(e, n)}: повреждения удваиваются ({', '.join(_zone(z) for z in e['zones'])})",
    "no_effect_threat": lambda e, n: f"Действие {_thr(e, n)} без эффекта ({word(THREAT_NO_EFFECT, e.get('reason'))})",
}

TABLE = Table(
    templates=TEMPLATES,
    lost=_lost,
    codes={
        "ZONES": ZONE,
        "MOVE_HOWS": MOVE_HOW,
        "DELAY_CAUSES": DELAY_CAUSE,
        "NO_EFFECT_REASONS": NO_EFFECT,
        "THREAT_NO_EFFECTS": THREAT_NO_EFFECT,
        "HIT_HOWS": HIT_HOW,
        "WEAPONS": WEAPON,
        "BOTS_CHANGES": BOTS,
        "ENERGY_STORES": SYSTEM,
        "DAMAGE_TOKEN_KINDS": TOKEN,
    },
)
