"""Space Alert's what-if comparisons: what /whatif and Hindsight answered on a logged flight, kept
so the web's flight page can list them, over the platform's SQL core (both backends: `storage.fetch`
for reads, `tx.run` in a unit of work).  Table `flight_comparisons` (migrations sqlite/0009 and
postgres/0008); the flight page's version reads its newest id (records/public.py, flight_mark).

Why here: a comparison is of a Space Alert flight (its boards, plans and turns), so it is the
game's, as the flights (mission/storage.py) and the logbook (logbook.py) are; the platform's
storage supplies the transaction and names no game's table (issue 23).

Why a table and not the flight's notes: the notes belong to the flight's own unit of work, and a
comparison is asked for long after the flight ended, by any crew member, possibly twice at once;
an insert of its own needs no read-modify-write of the flight.  The changed plan is kept as a
language-free JSON `changes` list (turns and codes) beside the two outcomes; the page words them.
Asking the same thing again keeps one row (ON CONFLICT on flight, kind, member, board and plan),
so a player trying one plan ten times does not fill the page.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.platform.storage.rows import now

KINDS = ("whatif", "hindsight")
_COLUMNS = (
    "id, flight_id, kind, asked_by, asked_name, board, plan, changes, real_outcome, real_total, alt_outcome,"
    " alt_total, diverges_at, asked_at"
)


@dataclass(frozen=True)
class Comparison:
    """One comparison: who asked, what they changed, and the outcome against the real one."""

    flight_id: str
    kind: str  # "whatif" (a member's /whatif plan) | "hindsight" (the Hindsight answer)
    asked_by: int | None
    asked_name: str
    real_outcome: str
    real_total: int
    alt_outcome: str
    alt_total: int
    board: str = ""  # whose 12 actions changed ("" for Hindsight, which may change several)
    plan: str = ""  # the /whatif plan string ("" for Hindsight): with the rest, what makes it unique
    changes: list[dict[str, Any]] = field(default_factory=list)
    diverges_at: int | None = None
    asked_at: str = ""
    id: int = 0

    @property
    def delta(self) -> int:
        return self.alt_total - self.real_total


def _comparison_of(row: Sequence[Any]) -> Comparison:
    changes = row[7]
    return Comparison(
        id=int(row[0]),
        flight_id=str(row[1]),
        kind=str(row[2]),
        asked_by=None if row[3] is None else int(row[3]),
        asked_name=str(row[4]),
        board=str(row[5]),
        plan=str(row[6]),
        changes=list(json.loads(changes) if isinstance(changes, str | bytes) else changes or []),
        real_outcome=str(row[8]),
        real_total=int(row[9]),
        alt_outcome=str(row[10]),
        alt_total=int(row[11]),
        diverges_at=None if row[12] is None else int(row[12]),
        asked_at=str(row[13]),
    )


# -- inside a unit of work (`tx` is the platform's transaction) -------------------------------------
async def add_comparison(tx: Any, comparison: Comparison) -> bool:
    """Keep `comparison`; False when the same one was already kept (nothing written)."""
    if comparison.kind not in KINDS:
        raise ValueError(f"unknown comparison kind {comparison.kind!r}")
    c = comparison
    changed: int = await tx.run(
        "INSERT INTO flight_comparisons (flight_id, kind, asked_by, asked_name, board, plan, changes,"
        " real_outcome, real_total, alt_outcome, alt_total, diverges_at, asked_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (flight_id, kind, asked_by, board, plan) DO NOTHING",
        (
            c.flight_id,
            c.kind,
            c.asked_by,
            c.asked_name,
            c.board,
            c.plan,
            json.dumps(c.changes, ensure_ascii=False),
            c.real_outcome,
            c.real_total,
            c.alt_outcome,
            c.alt_total,
            c.diverges_at,
            c.asked_at or now(),
        ),
    )
    return changed > 0


# -- the repository ---------------------------------------------------------------------------------
class Comparisons:
    """A flight's comparisons over a platform storage (SqliteStorage or PostgresStorage): `add` as
    a unit of work of its own (it joins the caller's, `storage.transaction()` nests in a task), and
    the committed read the flight page uses."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def add(self, comparison: Comparison) -> bool:
        """Keep a comparison (see add_comparison); False when the same one was kept already."""
        async with self.storage.transaction() as tx:
            return await add_comparison(tx, comparison)

    async def of_flight(self, flight_id: str, *, limit: int = 50) -> list[Comparison]:
        """A flight's comparisons, oldest first (index flight_comparisons_by_flight)."""
        found = await self.storage.fetch(
            f"SELECT {_COLUMNS} FROM flight_comparisons WHERE flight_id = ? ORDER BY id LIMIT ?", (flight_id, limit)
        )
        return [_comparison_of(r) for r in found]
