"""Plain English sentences for the structured event log, used by the CLI's --log.

The bot renders the same events in the flight's language; this is the engine's own neutral
rendering, so `python -m engine resolve --log` is readable without the bot.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.threats.catalog import card_or_none

Event = dict[str, Any]


def _name(threat_id: str | None) -> str:
    card = card_or_none(threat_id or "")
    return f"{card.name} ({threat_id})" if card else str(threat_id)


def _article(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def _place(st: str | None) -> str:
    return (st or "?").replace("_", " ")


TEMPLATES: dict[str, Callable[[Event], str]] = {
    "threat_appears": lambda e: (
        f"{_name(e['threat'])} appears on {e['track']}"
        + (f" in the {e['zone']} zone" if e.get("zone") else f" in {_place(e.get('station'))}")
    ),
    "move": lambda e: f"{e['player']} moves from {_place(e['frm'])} to {_place(e['to'])} ({e['how']})",
    "delay": lambda e: (
        f"{e['player']} is delayed: the action of turn {e['delayed_turn']} slides right"
        + (f", the card '{e['lost_card']}' falls off the board" if e.get("lost_card") else "")
        + f" ({e['cause']})"
    ),
    "knocked_out": lambda e: f"{e['player']} is knocked out in {_place(e['station'])} ({e['cause']})",
    "no_effect": lambda e: f"{e['player']}'s {e['action']} has no effect: {e['reason']}",
    "fire": lambda e: (
        f"{e['player']} fires the cannon in {_place(e['station'])}" + (" heroically" if e["heroic"] else "")
    ),
    "energy": lambda e: (
        f"{e['player']} moves {e['amount']} energy from {e['frm']} to {e['to']}"
        + (f" (+{e['heroic_bonus']} heroic)" if e.get("heroic_bonus") else "")
    ),
    "refuel": lambda e: (
        f"{e['player']} refuels the central reactor (+{e['amount']}"
        + (f", +{e['heroic_bonus']} heroic" if e.get("heroic_bonus") else "")
        + f"); {e['capsules_left']} capsules left"
    ),
    "maintenance": lambda e: f"{e['player']} maintains the computer (phase {e['phase']})",
    "bots": lambda e: f"{e['player']}: battlebots {e['what']}",
    "observe": lambda e: f"{e['player']} makes a visual confirmation ({e['count']} this turn)",
    "rocket_launched": lambda e: f"{e['player']} fires a rocket; {e['rockets_left']} left aboard",
    "interceptors": lambda e: f"{e['player']} stays out with the interceptors" + (" (heroic)" if e["heroic"] else ""),
    "repair_attempt": lambda e: f"{e['player']} works on {_name(e['threat'])} ({e['count']} this turn)",
    "threat_hit": lambda e: f"{_name(e['threat'])} takes {e['amount']} from {e.get('by') or 'the ship'} ({e['how']})",
    "threat_destroyed": lambda e: (
        f"{_name(e['threat'])} is destroyed" + (f" by {e['by']}" if e.get("by") else "") + f" ({e['how']})"
    ),
    "returns_fire": lambda e: f"{_name(e['threat'])} returns fire: {e['player']}'s battlebots are disabled",
    "no_target": lambda e: f"The {e['weapon']} has no target",
    "rocket_fizzles": lambda e: f"The rocket reaches {_name(e['threat'])} and does nothing",
    "cryoshield": lambda e: f"{_name(e['threat'])}'s cryoshield absorbs {e['absorbed']} and is gone",
    "threat_damage": lambda e: (
        f"{_name(e['threat'])}: {e['total']} from {', '.join(e['weapons'])}, shield {e['shield']}, {e['damage']} damage"
    ),
    "retaliation": lambda e: f"{_name(e['threat'])} retaliates against every zone",
    "breakup": lambda e: f"{_name(e['threat'])} breaks up ({e['breakpoints']} breakpoints passed)",
    "threat_action": lambda e: f"{_name(e['threat'])} does {e['letter']}: {e['card_text']}",
    "threat_moved": lambda e: f"{_name(e['threat'])} moves from space {e['frm']} to {e['to']}",
    "threat_survived": lambda e: f"{_name(e['threat'])} has done its Z and leaves",
    "attack": lambda e: (
        f"{e['source']} attacks the {e['zone']} zone for {e['amount']}: "
        f"shield absorbs {e['absorbed']}, {e['damage']} damage"
    ),
    "damage_token": lambda e: (
        f"{e['zone'].capitalize()} zone takes {_article(e['token'].replace('_', ' '))} damage "
        f"token ({e['total']} in all)"
    ),
    "zone_destroyed": lambda e: f"The {e['zone']} zone needs a seventh damage token: it is destroyed",
    "ship_lost": lambda e: f"{_name(e['threat'])} destroys the ship",
    "mission_lost": lambda e: f"Mission lost: {e['cause']}",
    "computer_ok": lambda e: f"Computer check, phase {e['phase']}: maintained",
    "computer_not_maintained": lambda e: (
        f"Computer check, phase {e['phase']}: not maintained, everyone aboard is delayed"
    ),
    "phase_end": lambda e: f"End of phase {e['phase']}: best visual confirmation {e['observers']}",
    "hyperspace_jump": lambda e: "The ship jumps into hyperspace",
    "threat_repairs": lambda e: f"{_name(e['threat'])} repairs {e['amount']} damage",
    "self_damage": lambda e: f"{_name(e['threat'])} takes {e['amount']} damage from its own attack",
    "threat_speed": lambda e: f"{_name(e['threat'])} now has speed {e['speed']}",
    "threat_shield": lambda e: f"{_name(e['threat'])} now has shield {e['shield']}",
    "threat_visible": lambda e: f"{_name(e['threat'])} becomes visible",
    "threat_aura": lambda e: f"{_name(e['threat'])}'s effect now applies to other threats",
    "threat_breakpoint": lambda e: f"{_name(e['threat'])} has passed {e['passed']} breakpoints",
    "energy_lost": lambda e: f"{_name(e['threat'])} drains {e['amount']} energy from {e['where']}",
    "energy_moved": lambda e: (
        f"{_name(e['threat'])} moves {e['amount']} energy into the shield, {e['overflow']} overflows"
    ),
    "threat_moves": lambda e: f"{_name(e['threat'])} moves from {_place(e['frm'])} to {_place(e['to'])}",
    "threat_stays": lambda e: f"{_name(e['threat'])} stays in {_place(e['station'])}",
    "threat_grows_up": lambda e: f"{_name(e['threat'])} grows up",
    "rocket_destroyed": lambda e: f"{_name(e['threat'])} destroys a rocket; {e['rockets_left']} left",
    "bots_disabled": lambda e: f"{_name(e['threat'])} disables the battlebots stored in {_place(e['station'])}",
    "fuel_destroyed": lambda e: f"{_name(e['threat'])} destroys a fuel capsule; {e['capsules_left']} left",
    "slime_spreads": lambda e: f"{_name(e['threat'])} spreads from {_place(e['frm'])} to {_place(e['to'])}",
    "slime_blocked": lambda e: f"{_name(e['threat'])} cannot spread from {_place(e['frm'])}",
    "damage_doubled": lambda e: f"{_name(e['threat'])}: damage to {', '.join(e['zones'])} is doubled",
    "no_effect_threat": lambda e: f"{_name(e['threat'])}'s action has no effect ({e['reason']})",
}


def describe(event: Event) -> str:
    template = TEMPLATES.get(event["kind"])
    if template is None:
        return event["kind"].replace("_", " ")
    return template(event)
