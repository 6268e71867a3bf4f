"""The start-up heap is frozen once, at the first ready (issue 23: the slowest clicks were the
collector walking every start-up object; cyclic garbage piled up as memory per running game)."""

from __future__ import annotations

import gc
from typing import Any

from bot.platform import client as client_module
from bot.platform.client import freeze_startup_heap


async def test_the_first_ready_freezes_the_heap_and_a_reconnect_does_not(bot: Any, monkeypatch: Any) -> None:
    calls: list[int] = []
    monkeypatch.setattr(client_module, "freeze_startup_heap", lambda: calls.append(1) or 1)
    await bot.on_ready()
    await bot.on_ready()  # a reconnect: on_ready fires again
    assert calls == [1]


def test_freezing_takes_the_live_objects_out_of_collections() -> None:
    kept = [[] for _ in range(1000)]  # live, tracked objects
    try:
        frozen = freeze_startup_heap()
        assert frozen >= len(kept) and gc.get_freeze_count() == frozen
        assert gc.get_count()[2] == 0  # nothing left waiting for a full collection
    finally:
        gc.unfreeze()  # the other tests' objects stay collectable
    assert gc.get_freeze_count() == 0
