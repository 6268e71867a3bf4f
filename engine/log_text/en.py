"""English captain's log: one template per resolution event, one phrase per code."""

from __future__ import annotations

from typing import Any

from engine.log_text.base import Event, Names, Table, Template, thr, word
from engine.vocab import EventKind

ZONE = {"red": "red zone", "white": "white zone", "blue": "blue zone"}
_thr = thr
MOVE_HOW = {
    "red_arrow": "red arrow",
    "blue_arrow": "blue arrow",
    "gravolift": "gravolift",
    "heroic_move": "heroic move",
    "launch": "interceptors launched",
    "return": "return from space",
}
DELAY_CAUSE = {
    "computer": "computer not maintained",
    "lift_damaged": "gravolift damaged",
    "lift_busy": "gravolift already used",
    "return_from_space": "returning from space",
}
NO_EFFECT = {
    "hull_end": "already at that end of the ship",
    "system_broken": "system broken by a malfunction",
    "cannon_fired": "cannon already fired this turn",
    "no_energy": "no energy in the reactor",
    "no_fuel": "no fuel capsules left",
    "no_bots_to_take": "no battlebots to take or reactivate",
    "no_active_bots": "no active battlebots",
    "no_intruder": "no intruder here",
    "space_taken": "nobody else may be in space",
    "no_rocket": "no rocket",
    "rocket_fired": "rocket already fired this turn",
    "already_full": "what it fills is full already",
    "knocked_out": "knocked out, the card is not played",
}
THREAT_NO_EFFECT = {
    "condition_unmet": "its condition is not met",
    "no_rockets": "no rockets aboard",
    "no_stored_bots": "no battlebots stored there",
}
HIT_HOW = {
    "damage": "damage",
    "explosion": "explosion",
    "self_damage": "its own attack",
    "rocket_lost": "rocket lost",
    "no_rockets": "no rockets aboard",
    "repair": "repair",
    "battlebots": "battlebots",
    "interceptors": "interceptors",
    "all_repaired": "every station repaired",
}
WEAPON = {
    "heavy": "heavy laser",
    "light": "light laser",
    "pulse": "pulse cannon",
    "rocket": "rocket",
    "interceptors": "interceptors",
    "explosion": "explosion",
}
BOTS = {"reactivated": "reactivated", "picked_up": "picked up", "picked_up_disabled": "picked up disabled"}
STORE = {"reactor": "reactor", "shield": "shield"}
TOKEN = {
    "structural": "structural",
    "lift": "lift",
    "shield": "shield",
    "reactor": "reactor",
    "upper_cannon": "upper cannon",
    "lower_cannon": "lower cannon",
}


def _place(st: Any) -> str:
    return "space (interceptors)" if st == "space" else str(st or "?").replace("_", " ")


def _cause(e: Event, n: Names) -> str:
    cause = e.get("cause")
    return DELAY_CAUSE[cause] if cause in DELAY_CAUSE else _thr(e, n, "cause")


def _weapons(e: Event, n: Names) -> str:
    names = []
    for w in e["weapons"]:
        if w == "explosion" and e.get("source"):
            names.append(f"the explosion of {_thr(e, n, 'source')}")
        elif w in ("heavy", "light") and e.get("zone"):
            names.append(f"{WEAPON[w]} {e['zone']}")
        else:
            names.append(word(WEAPON, w))
    return ", ".join(names)


def _article(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def _lost(e: Event, n: Names) -> str:
    return _thr(e, n) if e.get("threat") else f"the {word(ZONE, e.get('zone'))} is destroyed"


TEMPLATES: dict[EventKind, Template] = {
    "threat_appears": lambda e, n: (
        f"{_thr(e, n)} appears on {e['track']}"
        + (f" in the {word(ZONE, e['zone'])}" if e.get("zone") else f" in {_place(e.get('station'))}")
    ),
    "move": lambda e, n: (
        f"{e['player']} moves from {_place(e['frm'])} to {_place(e['to'])} ({word(MOVE_HOW, e['how'])})"
    ),
    "delay": lambda e, n: (
        f"{e['player']} is delayed: the action of turn {e['delayed_turn']} slides right"
        + (f", the card '{e['lost_card']}' falls off the board" if e.get("lost_card") else "")
        + f" ({_cause(e, n)})"
    ),
    "knocked_out": lambda e, n: f"{e['player']} is knocked out in {_place(e['station'])} ({_thr(e, n, 'cause')})",
    "no_effect": lambda e, n: f"{e['player']}'s {e['action']} has no effect: {word(NO_EFFECT, e['reason'])}",
    "fire": lambda e, n: (
        f"{e['player']} fires the cannon in {_place(e['station'])}" + (" heroically" if e["heroic"] else "")
    ),
    "energy": lambda e, n: (
        f"{e['player']} moves {e['amount']} energy from the {e['src_zone']} {word(STORE, e['src'])} "
        f"to the {e['dst_zone']} {word(STORE, e['dst'])}"
        + (f" (+{e['heroic_bonus']} heroic)" if e.get("heroic_bonus") else "")
    ),
    "refuel": lambda e, n: (
        f"{e['player']} refuels the central reactor (+{e['amount']}"
        + (f", +{e['heroic_bonus']} heroic" if e.get("heroic_bonus") else "")
        + f"); {e['capsules_left']} capsules left"
    ),
    "maintenance": lambda e, n: f"{e['player']} maintains the computer (phase {e['phase']})",
    "bots": lambda e, n: f"{e['player']}: battlebots {word(BOTS, e['what'])}",
    "observe": lambda e, n: f"{e['player']} makes a visual confirmation ({e['count']} this turn)",
    "rocket_launched": lambda e, n: f"{e['player']} fires a rocket; {e['rockets_left']} left aboard",
    "interceptors": lambda e, n: (
        f"{e['player']} stays out with the interceptors" + (" (heroic)" if e["heroic"] else "")
    ),
    "repair_attempt": lambda e, n: f"{e['player']} works on {_thr(e, n)} ({e['count']} this turn)",
    "threat_hit": lambda e, n: (
        f"{_thr(e, n)} takes {e['amount']} from {e.get('by') or 'the ship'} ({word(HIT_HOW, e['how'])})"
    ),
    "threat_destroyed": lambda e, n: (
        f"{_thr(e, n)} is destroyed"
        + (f" by {e['by']}" if e.get("by") else "")
        + (f" (the explosion of {_thr(e, n, 'source')})" if e.get("source") else f" ({word(HIT_HOW, e['how'])})")
    ),
    "returns_fire": lambda e, n: f"{_thr(e, n)} returns fire: {e['player']}'s battlebots are disabled",
    "no_target": lambda e, n: (
        f"The {word(WEAPON, e['weapon'])}" + (f" {e['zone']}" if e.get("zone") else "") + " has no target"
    ),
    "rocket_fizzles": lambda e, n: f"The rocket reaches {_thr(e, n)} and does nothing",
    "cryoshield": lambda e, n: f"{_thr(e, n)}'s cryoshield absorbs {e['absorbed']} and is gone",
    "threat_damage": lambda e, n: (
        f"{_thr(e, n)}: {e['total']} from {_weapons(e, n)}, shield {e['shield']}, {e['damage']} damage"
    ),
    "retaliation": lambda e, n: f"{_thr(e, n)} retaliates against every zone",
    "breakup": lambda e, n: f"{_thr(e, n)} breaks up ({e['breakpoints']} breakpoints passed)",
    "threat_action": lambda e, n: f"{_thr(e, n)} does {e['letter']}: {n.card_text(e['threat'], e['letter'])}",
    "threat_moved": lambda e, n: f"{_thr(e, n)} moves from space {e['frm']} to {e['to']}",
    "threat_survived": lambda e, n: f"{_thr(e, n)} has done its Z and leaves",
    "attack": lambda e, n: (
        f"{_thr(e, n, 'source')} attacks the {word(ZONE, e['zone'])} for {e['amount']}: "
        f"shield absorbs {e['absorbed']}, {e['damage']} damage"
    ),
    "damage_token": lambda e, n: (
        f"{word(ZONE, e['zone']).capitalize()} takes {_article(word(TOKEN, e['token']))} damage "
        f"token ({e['total']} in all)"
    ),
    "zone_destroyed": lambda e, n: f"The {word(ZONE, e['zone'])} needs a seventh damage token: it is destroyed",
    "ship_lost": lambda e, n: f"{_thr(e, n)} destroys the ship",
    "mission_lost": lambda e, n: f"Mission lost: {_lost(e, n)}",
    "computer_ok": lambda e, n: f"Computer check, phase {e['phase']}: maintained",
    "computer_not_maintained": lambda e, n: (
        f"Computer check, phase {e['phase']}: not maintained, everyone aboard is delayed"
    ),
    "phase_end": lambda e, n: f"End of phase {e['phase']}: best visual confirmation {e['observers']}",
    "hyperspace_jump": lambda e, n: "The ship jumps into hyperspace",
    "threat_repairs": lambda e, n: f"{_thr(e, n)} repairs {e['amount']} damage",
    "self_damage": lambda e, n: f"{_thr(e, n)} takes {e['amount']} damage from its own attack",
    "threat_speed": lambda e, n: f"{_thr(e, n)} now has speed {e['speed']}",
    "threat_shield": lambda e, n: f"{_thr(e, n)} now has shield {e['shield']}",
    "threat_visible": lambda e, n: f"{_thr(e, n)} becomes visible",
    "threat_aura": lambda e, n: f"{_thr(e, n)}'s effect now applies to other threats",
    "threat_breakpoint": lambda e, n: f"{_thr(e, n)} has passed {e['passed']} breakpoints",
    "energy_lost": lambda e, n: (
        f"{_thr(e, n)} drains {e['amount']} energy from the {e['zone']} {word(STORE, e['system'])}"
    ),
    "energy_moved": lambda e, n: f"{_thr(e, n)} moves {e['amount']} energy into the shield, {e['overflow']} overflows",
    "threat_moves": lambda e, n: f"{_thr(e, n)} moves from {_place(e['frm'])} to {_place(e['to'])}",
    "threat_stays": lambda e, n: f"{_thr(e, n)} stays in {_place(e['station'])}",
    "threat_grows_up": lambda e, n: f"{_thr(e, n)} grows up",
    "rocket_destroyed": lambda e, n: f"{_thr(e, n)} destroys a rocket; {e['rockets_left']} left",
    "bots_disabled": lambda e, n: f"{_thr(e, n)} disables the battlebots stored in {_place(e['station'])}",
    "fuel_destroyed": lambda e, n: f"{_thr(e, n)} destroys a fuel capsule; {e['capsules_left']} left",
    "slime_spreads": lambda e, n: f"{_thr(e, n)} spreads from {_place(e['frm'])} to {_place(e['to'])}",
    "slime_blocked": lambda e, n: f"{_thr(e, n)} cannot spread from {_place(e['frm'])}",
    "damage_doubled": lambda e, n: f"{_thr(e, n)}: damage to {', '.join(e['zones'])} is doubled",
    "no_effect_threat": lambda e, n: f"{_thr(e, n)}'s action has no effect ({word(THREAT_NO_EFFECT, e['reason'])})",
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
        "ENERGY_STORES": STORE,
        "DAMAGE_TOKEN_KINDS": TOKEN,
    },
)
