"""Slovak captain's log: one template per resolution event, one phrase per code.

Vocabulary follows the Slovak rulebook (seed 001): zóna, lokalita, horná/dolná paluba, tím
robotov, vizuálna konfirmácia, údržba počítača, stíhačky, ťažké/ľahké laserové delo, pulzné
delo, hyperpriestor.  Stations are named in the nominative inside quotes, so no template has to
decline them.
"""

from __future__ import annotations

from engine.log_text.base import Table, Template, Words, opt, thr, word
from engine.vocab import EventKind

MOVE_HOW = {
    "red_arrow": "červená šípka",
    "blue_arrow": "modrá šípka",
    "gravolift": "výťah",
    "heroic_move": "hrdinský pohyb",
    "launch": "vzlet v stíhačkách",
    "return": "návrat z vesmíru",
}
DELAY_CAUSE = {
    "computer": "neudržiavaný počítač",
    "lift_damaged": "výťah je poškodený",
    "lift_busy": "výťah už bol použitý",
    "return_from_space": "návrat z vesmíru",
}
NO_EFFECT = {
    "hull_end": "už je na tom konci lode",
    "system_broken": "zariadenie vyradila porucha",
    "cannon_fired": "delo už v tomto kole strieľalo",
    "no_energy": "v reaktore nie je energia",
    "no_fuel": "nezostal žiadny palivový článok",
    "no_bots_to_take": "nie je tu tím robotov na vzatie ani aktiváciu",
    "no_active_bots": "žiadny bojaschopný tím robotov",
    "no_intruder": "nie je tu žiadny votrelec",
    "space_taken": "vo vesmíre už je iný hráč",
    "no_rocket": "nezostala žiadna raketa",
    "rocket_fired": "raketa už v tomto kole letí",
    "already_full": "nie je čo doplniť, všetko je plné",
    "knocked_out": "hráč je vyradený, karta sa nehrá",
}
THREAT_NO_EFFECT = {
    "condition_unmet": "podmienka nie je splnená",
    "no_rockets": "na palube nie sú rakety",
    "no_stored_bots": "nie sú tam uložené tímy robotov",
}
HIT_HOW = {
    "damage": "poškodenie",
    "explosion": "výbuch",
    "self_damage": "vlastný útok",
    "rocket_lost": "stratená raketa",
    "no_rockets": "na palube nie sú rakety",
    "repair": "oprava",
    "battlebots": "tím robotov",
    "interceptors": "stíhačky",
    "all_repaired": "opravené vo všetkých lokalitách",
}
WEAPON = {
    "heavy": "ťažké laserové delo",
    "light": "ľahké laserové delo",
    "pulse": "pulzné delo",
    "rocket": "raketa",
    "interceptors": "stíhačky",
    "explosion": "výbuch",
}
BOTS = {"reactivated": "znovu aktivovaný", "picked_up": "vzatý", "picked_up_disabled": "vzatý (poškodený)"}
TOKEN = {
    "structural": "poškodenie trupu",
    "lift": "poškodenie výťahu",
    "shield": "poškodenie štítu",
    "reactor": "poškodenie reaktora",
    "upper_cannon": "poškodenie horného dela",
    "lower_cannon": "poškodenie dolného dela",
}
SYSTEM = {"shield": "štít", "reactor": "reaktor"}
DECK = {"upper": "horná", "lower": "dolná"}
ZONE_ADJ = {"red": "červená", "white": "biela", "blue": "modrá"}
ZONE_ACC = {"red": "červenú zónu", "white": "bielu zónu", "blue": "modrú zónu"}
SPACE = "vesmír (stíhačky)"
STATION_WORD = "lokalita"
ZONE_LOST = "je zničená"
ZONE = {"red": "červená zóna", "white": "biela zóna", "blue": "modrá zóna"}


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
        f"Objavuje sa {_thr(e, n)} na trajektórii {e['track']}"
        + (f", {_zone(e.get('zone'))}" if e.get("zone") else f", {_st(e.get('station'))}")
    ),
    "move": lambda e, n: f"{e['player']} sa presúva: {_st(e['frm'])} → {_st(e['to'])} ({word(MOVE_HOW, e['how'])})",
    "delay": lambda e, n: (
        f"{e['player']} má oneskorenie: akcia kola {e['delayed_turn']} sa posúva doprava"
        + _opt(e.get("lost_card"), f", karta „{e.get('lost_card')}“ padá z tabuľky")
        + f" ({_cause(e, n)})"
    ),
    "knocked_out": lambda e, n: f"{e['player']} je vyradený/á: {_st(e['station'])} ({_thr(e, n, 'cause')})",
    "no_effect": lambda e, n: f"Akcia {e['action']} hráča {e['player']} nemá účinok: {word(NO_EFFECT, e['reason'])}",
    "fire": lambda e, n: f"{e['player']} strieľa z dela: {_st(e['station'])}" + _opt(e["heroic"], " (hrdinsky)"),
    "energy": lambda e, n: (
        f"{e['player']} presúva {e['amount']} energie: "
        f"{_store(e['src'], e['src_zone'])} → {_store(e['dst'], e['dst_zone'])}"
        + _opt(e.get("heroic_bonus"), f" (+{e.get('heroic_bonus')} hrdinsky)")
    ),
    "refuel": lambda e, n: (
        f"{e['player']} dopĺňa centrálny reaktor (+{e['amount']}"
        + _opt(e.get("heroic_bonus"), f", +{e.get('heroic_bonus')} hrdinsky")
        + f"); zostáva palivových článkov: {e['capsules_left']}"
    ),
    "maintenance": lambda e, n: f"{e['player']} vykonáva údržbu počítača (fáza {e['phase']})",
    "bots": lambda e, n: f"{e['player']}: tím robotov {word(BOTS, e['what'])}",
    "observe": lambda e, n: f"{e['player']} vykonáva vizuálnu konfirmáciu ({e['count']} v tomto kole)",
    "rocket_launched": lambda e, n: f"{e['player']} odpaľuje raketu; na palube zostáva {e['rockets_left']}",
    "interceptors": lambda e, n: f"{e['player']} zostáva vo vesmíre so stíhačkami" + _opt(e["heroic"], " (hrdinsky)"),
    "repair_attempt": lambda e, n: f"{e['player']} opravuje {_thr(e, n)} ({e['count']} v tomto kole)",
    "threat_hit": lambda e, n: (
        f"{_thr(e, n)} dostáva zásah {e['amount']} od {e.get('by') or 'lode'} ({word(HIT_HOW, e.get('how'))})"
    ),
    "threat_destroyed": lambda e, n: (
        f"{_thr(e, n)} je zničené" + _opt(e.get("by"), f" ({e.get('by')})") + f" ({word(HIT_HOW, e.get('how'))})"
    ),
    "returns_fire": lambda e, n: f"{_thr(e, n)} opätuje paľbu: tím robotov hráča {e['player']} je poškodený",
    "no_target": lambda e, n: f"{_weapon(e, n, e['weapon'])}: žiadny cieľ",
    "rocket_fizzles": lambda e, n: f"Raketa doletí k {_thr(e, n)} a nič nespôsobí",
    "cryoshield": lambda e, n: f"Kryoštít {_thr(e, n)} pohltí {e['absorbed']} a zmizne",
    "threat_damage": lambda e, n: (
        f"{_thr(e, n)}: zásah {e['total']} ({', '.join(_weapon(e, n, w) for w in e['weapons'])}), "
        f"štít {e['shield']}, poškodenie {e['damage']}"
    ),
    "retaliation": lambda e, n: f"{_thr(e, n)} oplatí útok na všetky zóny",
    "breakup": lambda e, n: f"{_thr(e, n)} sa rozpadá (prešlo bodmi rozpadu: {e['breakpoints']})",
    "threat_action": lambda e, n: f"{_thr(e, n)} vykonáva akciu {e['letter']}: {n.card_text(e['threat'], e['letter'])}",
    "threat_moved": lambda e, n: f"{_thr(e, n)} sa posúva z poľa {e['frm']} na pole {e['to']}",
    "threat_survived": lambda e, n: f"{_thr(e, n)} vykonalo akciu Z a odlieta",
    "attack": lambda e, n: (
        f"{_thr(e, n, 'source')} útočí na {word(ZONE_ACC, e['zone'])} silou {e['amount']}: "
        f"štít pohltí {e['absorbed']}, poškodenie {e['damage']}"
    ),
    "damage_token": lambda e, n: (
        f"{_zone(e['zone']).capitalize()} dostáva žetón „{_token(e['token'])}“ (spolu {e['total']})"
    ),
    "zone_destroyed": lambda e, n: f"{_zone(e['zone']).capitalize()} potrebuje siedmy žetón poškodenia: je zničená",
    "ship_lost": lambda e, n: f"{_thr(e, n)} ničí loď",
    "mission_lost": lambda e, n: f"Misia stratená: {_lost(e, n)}",
    "computer_ok": lambda e, n: f"Kontrola počítača, fáza {e['phase']}: udržiavaný",
    "computer_not_maintained": lambda e, n: (
        f"Kontrola počítača, fáza {e['phase']}: neudržiavaný, všetci na palube majú oneskorenie"
    ),
    "phase_end": lambda e, n: f"Koniec fázy {e['phase']}: najlepšia vizuálna konfirmácia {e['observers']}",
    "hyperspace_jump": lambda e, n: "Loď vstupuje do hyperpriestoru",
    "threat_repairs": lambda e, n: f"{_thr(e, n)} si opravuje {e['amount']} poškodenia",
    "self_damage": lambda e, n: f"{_thr(e, n)} utrpí {e['amount']} poškodenia vlastným útokom",
    "threat_speed": lambda e, n: f"{_thr(e, n)}: rýchlosť je teraz {e['speed']}",
    "threat_shield": lambda e, n: f"{_thr(e, n)}: štít je teraz {e['shield']}",
    "threat_visible": lambda e, n: f"{_thr(e, n)} sa zviditeľňuje",
    "threat_aura": lambda e, n: f"Účinok {_thr(e, n)} teraz platí aj pre ostatné ohrozenia",
    "threat_breakpoint": lambda e, n: f"{_thr(e, n)}: prešlo bodmi rozpadu: {e['passed']}",
    "energy_lost": lambda e, n: f"{_thr(e, n)} odčerpáva {e['amount']} energie: {_store(e['system'], e['zone'])}",
    "energy_moved": lambda e, n: f"{_thr(e, n)} presúva {e['amount']} energie do štítu, prebytok {e['overflow']}",
    "threat_moves": lambda e, n: f"{_thr(e, n)} sa presúva: {_st(e['frm'])} → {_st(e['to'])}",
    "threat_stays": lambda e, n: f"{_thr(e, n)} zostáva: {_st(e['station'])}",
    "threat_grows_up": lambda e, n: f"{_thr(e, n)} dospieva",
    "rocket_destroyed": lambda e, n: f"{_thr(e, n)} ničí raketu; zostáva {e['rockets_left']}",
    "bots_disabled": lambda e, n: f"{_thr(e, n)} poškodzuje tím robotov: {_st(e['station'])}",
    "fuel_destroyed": lambda e, n: f"{_thr(e, n)} ničí palivový článok; zostáva {e['capsules_left']}",
    "slime_spreads": lambda e, n: f"{_thr(e, n)} sa šíri: {_st(e['frm'])} → {_st(e['to'])}",
    "slime_blocked": lambda e, n: f"{_thr(e, n)} sa nemôže šíriť z lokality {_st(e['frm'])}",
    "damage_doubled": lambda e, n: (
        f"{_thr(e, n)}: poškodenie sa zdvojnásobuje ({', '.join(_zone(z) for z in e['zones'])})"
    ),
    "no_effect_threat": lambda e, n: f"Akcia {_thr(e, n)} nemá účinok ({word(THREAT_NO_EFFECT, e.get('reason'))})",
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
