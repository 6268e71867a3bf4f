"""ELITE's games in progress through one unit of work, over the platform's SQL core.

Why here: a game's reads and writes belong to the game; the platform supplies the transaction and
the `unit_of_work` loop (load, pure change, save with a version check, retry on StaleWrite).  The
statements on `elite_games`, `logbook_elite` and `elite_packs` are still the transaction's
(bot/platform/storage/platform.py, both backends) until they move here as well.

A change that ends the game writes its logbook row and removes the game in the same transaction
(`record_game`), so a finished game is never left behind nor logged twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.platform.storage.platform import EliteGameRecord, unit_of_work

FINISHED = "finished"  # the document key a finishing change puts the logbook row under


async def change_game(
    storage: Any, channel_id: int, change: Callable[[EliteGameRecord], bool], *, attempts: int = 5
) -> EliteGameRecord | None:
    """The channel's game through one unit of work; None when the channel has none.  `change`
    must be pure (it may run again on a fresh load) and return False when it changed nothing."""

    async def load(tx: Any) -> EliteGameRecord | None:
        found: EliteGameRecord | None = await tx.load_elite_game(channel_id)
        return found

    async def save(tx: Any, record: EliteGameRecord) -> None:
        row = record.state.get(FINISHED)
        if row is None:
            await tx.save_elite_game(record)
            return
        await tx.record_game(
            record.guild_id, row, channel_id=record.channel_id, language=str(record.state.get("lang", "en"))
        )

    return await unit_of_work(storage, load, change, save, attempts=attempts, what=f"ELITE game in {channel_id}")
