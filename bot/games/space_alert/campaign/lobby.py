"""What a campaign mission's lobby shows of its campaign: which mission of the three it is, the
recording the host chose instead of the drawn one, and the ship it carries in (§6.2), so the crew
boards knowing its damage."""

from __future__ import annotations

from typing import Any

from bot.games.space_alert.campaign._text import tx
from bot.platform.i18n import t
from engine.campaign.carried import DEPOTS
from engine.campaign.flow import MAX_MISSIONS


def carried_text(lang: str, carried: dict[str, Any]) -> str:
    """The damage tokens per zone and the squads out of order, or "no damage"."""
    damage = carried.get("damage") or {}
    lines = [
        f"{tx(lang, f'zone.{zone}')}: {', '.join(tx(lang, f'token.{token}') for token in tokens)}"
        for zone, tokens in damage.items()
        if tokens
    ]
    broken = len(DEPOTS) - len(carried.get("battlebots", DEPOTS))
    if broken:
        lines.append(tx(lang, "repair.squads", n=broken))
    return "\n".join(lines) or t(lang, "evening.campaign.no_damage")


def campaign_field(lang: str, options: dict[str, Any]) -> tuple[str, str] | None:
    """(field name, value) for a campaign mission's lobby; None for any other flight."""
    if not options.get("campaign_id"):
        return None
    number = options.get("campaign_mission", "?")
    lines = [t(lang, "evening.campaign.lobby_mission", n=number, of=MAX_MISSIONS)]
    drawn = options.get("campaign_drawn")
    if drawn and str(drawn).upper() != str(options.get("mission", "")).upper():
        lines.append(t(lang, "evening.campaign.lobby_swapped", drawn=drawn))
    lines.append(t(lang, "evening.campaign.lobby_carried", damage=carried_text(lang, options.get("carried") or {})))
    return t(lang, "evening.campaign.lobby_title"), "\n".join(lines)[:1024]
