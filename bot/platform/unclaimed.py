"""An answer for a press that no handler will take: an expired private picker, a modal whose form
the process forgot, a control of a build that is gone.

Why: restart-proof controls are registered kinds (`bot/platform/components.py`) and always have a
handler, but a short-lived private picker (ELITE's hero, token and defeat-cause choices, Escape's
numbers form) lives in memory only.  After its timeout or a restart discord.py drops the press
silently and the player sees Discord's "This interaction failed".  Every interaction is answered:
such a press gets a short private note that the control expired, in the player's language.

The check reads discord.py's view store (what `dispatch_view` and `dispatch_modal` would have
found), so it never races a handler: it answers only presses nothing was dispatched to."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.platform.errors import apologise, language_of
from bot.platform.i18n import t

log = logging.getLogger(__name__)


def has_handler(client: discord.Client, interaction: discord.Interaction) -> bool:
    """Whether discord.py dispatched this component press or modal to some handler."""
    store: Any = getattr(getattr(client, "_connection", None), "_view_store", None)
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    if store is None or not isinstance(custom_id, str):
        return True  # nothing to judge by: assume it is handled
    if interaction.type is discord.InteractionType.modal_submit:
        return custom_id in getattr(store, "_modals", {})
    if any(pattern.fullmatch(custom_id) for pattern in getattr(store, "_dynamic_items", {})):
        return True
    key = (int(data.get("component_type", 0)), custom_id)
    views: dict[Any, dict[Any, Any]] = getattr(store, "_views", {})
    message_id = interaction.message.id if interaction.message is not None else None
    for entity in (message_id, None):
        item = views.get(entity, {}).get(key)
        if item is not None and getattr(item, "view", None) is not None:
            return True
    return False


async def answer_unclaimed(client: discord.Client, interaction: discord.Interaction, default_language: str) -> bool:
    """Answer a component press or modal no handler took; True when it answered."""
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return False
    if interaction.response.is_done() or has_handler(client, interaction):
        return False
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    log.info("interaction %s: no handler for %r (expired or forgotten); told the user", interaction.id, custom_id)
    await apologise(interaction, t(language_of(interaction, default_language), "interaction.expired"))
    return True
