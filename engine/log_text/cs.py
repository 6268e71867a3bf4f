"""Czech captain's log: one template per resolution event, one phrase per code.

Vocabulary follows the rulebooks: the Czech/Slovak edition zóna, lokalita, paluba, bojoví roboti,
vizuální potvrzení, údržba počítače.  Stations are named in the nominative inside
quotes, so no template has to decline them.
"""

from __future__ import annotations

from engine.log_text.base import Table, Template, Words, opt, thr, word
from engine.vocab import EventKind

MOVE_HOW = {
    "red_arrow": "červená šipka",
    "blue_arrow": "modrá šipka",
    "gravolift": "výtah",
    "heroic_move": "hrdinský pohyb",
    "launch": "vzlet ve stíhačkách",
    "return": "návrat z vesmíru",
}
DELAY_CAUSE = {
    "computer": "neudržovaný počítač",
    "lift_damaged": "výtah je poškozen",
    "lift_busy": "výtah už byl použit",
    "return_from_space": "návrat z vesmíru",
}
NO_EFFECT = {
    "hull_end": "už je na tom konci lodi",
    "system_broken": "systém vyřadila porucha",
    "cannon_fired": "dělo už v tomto kole střílelo",
    "no_energy": "v reaktoru není energie",
    "no_fuel": "nezbyl žádný palivový článek",
    "no_bots_to_take": "nejsou tu bojoví roboti k vzetí ani aktivaci",
    "no_active_bots": "žádní bojeschopní roboti",
    "no_intruder": "není tu žádný vetřelec",
    "space_taken": "ve vesmíru už je jiný hráč",
    "no_rocket": "nezbyla žádná raketa",
    "rocket_fired": "raketa už v tomto kole letí",
    "already_full": "není co doplnit, vše je plné",
    "knocked_out": "hráč je vyřazen, karta se nehraje",
}
THREAT_NO_EFFECT = {
    "condition_unmet": "podmínka není splněna",
    "no_rockets": "na palubě nejsou rakety",
    "no_stored_bots": "nejsou tam uloženi bojoví roboti",
}
HIT_HOW = {
    "damage": "poškození",
    "explosion": "výbuch",
    "self_damage": "vlastní útok",
    "rocket_lost": "ztracená raketa",
    "no_rockets": "na palubě nejsou rakety",
    "repair": "oprava",
    "battlebots": "bojoví roboti",
    "interceptors": "stíhačky",
    "all_repaired": "opraveno ve všech lokalitách",
}
WEAPON = {
    "heavy": "těžký laser",
    "light": "lehký laser",
    "pulse": "pulzní dělo",
    "rocket": "raketa",
    "interceptors": "stíhačky",
    "explosion": "výbuch",
}
BOTS = {"reactivated": "znovu aktivováni", "picked_up": "vzati", "picked_up_disabled": "vzati (vyřazení)"}
TOKEN = {
    "structural": "poškození trupu",
    "lift": "poškození výtahu",
    "shield": "poškození štítu",
    "reactor": "poškození reaktoru",
    "upper_cannon": "poškození horního děla",
    "lower_cannon": "poškození dolního děla",
}
SYSTEM = {"shield": "štít", "reactor": "reaktor"}
DECK = {"upper": "horní", "lower": "dolní"}
ZONE_ADJ = {"red": "červená", "white": "bílá", "blue": "modrá"}
ZONE_ACC = {"red": "červenou zónu", "white": "bílou zónu", "blue": "modrou zónu"}
SPACE = "vesmír (stíhačky)"
STATION_WORD = "lokalita"
ZONE_LOST = "je zničena"
ZONE = {"red": "červená zóna", "white": "bílá zóna", "blue": "modrá zóna"}


W = Words(
    zone=ZONE,
    deck=DECK,
    zone_adj=ZONE_ADJ,
    station_word=STATION_WORD,
    quotes=("„", "“"),
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
        f"Objevuje se {_thr(e, n)} na trajektorii {e['track']}"
        + (f", {_zone(e.get('zone'))}" if e.get("zone") else f", {_st(e.get('station'))}")
    ),
    "move": lambda e, n: f"{e['player']} se přesouvá: {_st(e['frm'])} → {_st(e['to'])} ({word(MOVE_HOW, e['how'])})",
    "delay": lambda e, n: (
        f"{e['player']} má zpoždění: akce kola {e['delayed_turn']} se posouvá doprava"
        + _opt(e.get("lost_card"), f", karta „{e.get('lost_card')}“ padá z desky")
        + f" ({_cause(e, n)})"
    ),
    "knocked_out": lambda e, n: f"{e['player']} je vyřazen(a): {_st(e['station'])} ({_thr(e, n, 'cause')})",
    "no_effect": lambda e, n: f"Akce {e['action']} hráče {e['player']} nemá účinek: {word(NO_EFFECT, e['reason'])}",
    "fire": lambda e, n: f"{e['player']} střílí z děla: {_st(e['station'])}" + _opt(e["heroic"], " (hrdinsky)"),
    "energy": lambda e, n: (
        f"{e['player']} přesouvá {e['amount']} energie: "
        f"{_store(e['src'], e['src_zone'])} → {_store(e['dst'], e['dst_zone'])}"
        + _opt(e.get("heroic_bonus"), f" (+{e.get('heroic_bonus')} hrdinsky)")
    ),
    "refuel": lambda e, n: (
        f"{e['player']} doplňuje centrální reaktor (+{e['amount']}"
        + _opt(e.get("heroic_bonus"), f", +{e.get('heroic_bonus')} hrdinsky")
        + f"); zbývá palivových článků: {e['capsules_left']}"
    ),
    "maintenance": lambda e, n: f"{e['player']} provádí údržbu počítače (fáze {e['phase']})",
    "bots": lambda e, n: f"{e['player']}: bojoví roboti {word(BOTS, e['what'])}",
    "observe": lambda e, n: f"{e['player']} provádí vizuální potvrzení ({e['count']} v tomto kole)",
    "rocket_launched": lambda e, n: f"{e['player']} odpaluje raketu; na palubě zbývá {e['rockets_left']}",
    "interceptors": lambda e, n: f"{e['player']} zůstává ve vesmíru se stíhačkami" + _opt(e["heroic"], " (hrdinsky)"),
    "repair_attempt": lambda e, n: f"{e['player']} opravuje {_thr(e, n)} ({e['count']} v tomto kole)",
    "threat_hit": lambda e, n: (
        f"{_thr(e, n)} dostává zásah {e['amount']} od {e.get('by') or 'lodi'} ({word(HIT_HOW, e.get('how'))})"
    ),
    "threat_destroyed": lambda e, n: (
        f"{_thr(e, n)} je zničeno" + _opt(e.get("by"), f" ({e.get('by')})") + f" ({word(HIT_HOW, e.get('how'))})"
    ),
    "returns_fire": lambda e, n: f"{_thr(e, n)} opětuje palbu: bojoví roboti hráče {e['player']} jsou vyřazeni",
    "no_target": lambda e, n: f"{_weapon(e, n, e['weapon'])}: žádný cíl",
    "rocket_fizzles": lambda e, n: f"Raketa doletí k {_thr(e, n)} a nic nezpůsobí",
    "cryoshield": lambda e, n: f"Kryoštít {_thr(e, n)} pohltí {e['absorbed']} a zmizí",
    "threat_damage": lambda e, n: (
        f"{_thr(e, n)}: zásah {e['total']} ({', '.join(_weapon(e, n, w) for w in e['weapons'])}), "
        f"štít {e['shield']}, poškození {e['damage']}"
    ),
    "retaliation": lambda e, n: f"{_thr(e, n)} oplácí útok na všechny zóny",
    "breakup": lambda e, n: f"{_thr(e, n)} se rozpadá (prošlo body rozpadu: {e['breakpoints']})",
    "threat_action": lambda e, n: f"{_thr(e, n)} provádí akci {e['letter']}: {n.card_text(e['threat'], e['letter'])}",
    "threat_moved": lambda e, n: f"{_thr(e, n)} se posouvá z pole {e['frm']} na pole {e['to']}",
    "threat_survived": lambda e, n: f"{_thr(e, n)} provedlo akci Z a odlétá",
    "attack": lambda e, n: (
        f"{_thr(e, n, 'source')} útočí na {word(ZONE_ACC, e['zone'])} silou {e['amount']}: "
        f"štít pohltí {e['absorbed']}, poškození {e['damage']}"
    ),
    "damage_token": lambda e, n: (
        f"{_zone(e['zone']).capitalize()} dostává žeton „{_token(e['token'])}“ (celkem {e['total']})"
    ),
    "zone_destroyed": lambda e, n: f"{_zone(e['zone']).capitalize()} potřebuje sedmý žeton poškození: je zničena",
    "ship_lost": lambda e, n: f"{_thr(e, n)} ničí loď",
    "mission_lost": lambda e, n: f"Mise ztracena: {_lost(e, n)}",
    "computer_ok": lambda e, n: f"Kontrola počítače, fáze {e['phase']}: udržován",
    "computer_not_maintained": lambda e, n: (
        f"Kontrola počítače, fáze {e['phase']}: neudržován, všichni na palubě mají zpoždění"
    ),
    "phase_end": lambda e, n: f"Konec fáze {e['phase']}: nejlepší vizuální potvrzení {e['observers']}",
    "hyperspace_jump": lambda e, n: "Loď vstupuje do hyperprostoru",
    "threat_repairs": lambda e, n: f"{_thr(e, n)} si opravuje {e['amount']} poškození",
    "self_damage": lambda e, n: f"{_thr(e, n)} utrpí {e['amount']} poškození vlastním útokem",
    "threat_speed": lambda e, n: f"{_thr(e, n)}: rychlost je nyní {e['speed']}",
    "threat_shield": lambda e, n: f"{_thr(e, n)}: štít je nyní {e['shield']}",
    "threat_visible": lambda e, n: f"{_thr(e, n)} se zviditelňuje",
    "threat_aura": lambda e, n: f"Účinek {_thr(e, n)} nyní platí i pro ostatní ohrožení",
    "threat_breakpoint": lambda e, n: f"{_thr(e, n)}: prošlo body rozpadu: {e['passed']}",
    "energy_lost": lambda e, n: f"{_thr(e, n)} odčerpává {e['amount']} energie: {_store(e['system'], e['zone'])}",
    "energy_moved": lambda e, n: f"{_thr(e, n)} přesouvá {e['amount']} energie do štítu, přebytek {e['overflow']}",
    "threat_moves": lambda e, n: f"{_thr(e, n)} se přesouvá: {_st(e['frm'])} → {_st(e['to'])}",
    "threat_stays": lambda e, n: f"{_thr(e, n)} zůstává: {_st(e['station'])}",
    "threat_grows_up": lambda e, n: f"{_thr(e, n)} dospívá",
    "rocket_destroyed": lambda e, n: f"{_thr(e, n)} ničí raketu; zbývá {e['rockets_left']}",
    "bots_disabled": lambda e, n: f"{_thr(e, n)} vyřazuje bojové roboty: {_st(e['station'])}",
    "fuel_destroyed": lambda e, n: f"{_thr(e, n)} ničí palivový článek; zbývá {e['capsules_left']}",
    "slime_spreads": lambda e, n: f"{_thr(e, n)} se šíří: {_st(e['frm'])} → {_st(e['to'])}",
    "slime_blocked": lambda e, n: f"{_thr(e, n)} se nemůže šířit z lokality {_st(e['frm'])}",
    "damage_doubled": lambda e, n: (
        f"{_thr(e, n)}: poškození se zdvojnásobuje ({', '.join(_zone(z) for z in e['zones'])})"
    ),
    "no_effect_threat": lambda e, n: f"Akce {_thr(e, n)} nemá účinek ({word(THREAT_NO_EFFECT, e.get('reason'))})",
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
