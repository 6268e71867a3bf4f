"""Which missions a server can fly: the 16 official ones, 'random', SCENARIO_DIRS files and the
server's own uploaded timelines.  Loading and validation are engine.flight's; this only lists."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from bot.games.space_alert.storage import CustomMissions
from bot.platform.storage import Storage

log = logging.getLogger(__name__)

RANDOM = "random"


def _official_ids() -> list[str]:
    from engine.flight.timeline import official_ids

    return list(official_ids())


class MissionCatalog:
    def __init__(self, scenario_dirs: list[Path], storage: Storage) -> None:
        self.scenario_dirs = scenario_dirs
        self.storage = storage
        self._files: dict[str, tuple[str, Path]] | None = None

    def file_missions(self) -> dict[str, tuple[str, Path]]:
        """id -> (label, path) of the valid timeline files in SCENARIO_DIRS, read once.

        The cog calls this at start-up, so a bad file is reported when the bot starts.  Each file
        goes through the same edge as an upload (`timeline_from_bytes` via `load_timeline_file`);
        a bad one is skipped with one log line and never keeps the others or the official
        missions from loading.
        """
        if self._files is None:
            self._files = self._scan()
        return self._files

    def _scan(self) -> dict[str, tuple[str, Path]]:
        from engine.documents import DocumentError
        from engine.flight.timeline import load_timeline_file

        reserved = {m.upper() for m in _official_ids()} | {RANDOM.upper()}
        found: dict[str, tuple[str, Path]] = {}
        for directory in self.scenario_dirs:
            try:
                paths = sorted(Path(directory).glob("*.json"))
            except OSError as exc:
                log.warning("skipping mission folder %s: %s", directory, exc)
                continue
            for path in paths:
                try:
                    timeline = load_timeline_file(path)
                except DocumentError as exc:
                    log.warning("skipping mission file %s: %s", path, exc)
                    continue
                except Exception as exc:  # whatever else a hostile file finds: skip it, keep the rest
                    log.warning("skipping mission file %s: unexpected %s", path, type(exc).__name__)
                    continue
                if timeline.id.upper() in reserved:
                    log.warning("skipping mission file %s: id %s belongs to an official mission", path, timeline.id)
                elif timeline.id in found:
                    log.warning(
                        "skipping mission file %s: id %s is already used by %s",
                        path,
                        timeline.id,
                        found[timeline.id][1],
                    )
                else:
                    found[timeline.id] = (timeline.name or timeline.id, path)
        log.info("%d mission file(s) loaded from SCENARIO_DIRS", len(found))
        return found

    async def choices(self, guild_id: int | None) -> list[tuple[str, str]]:
        """(value, label) pairs for autocomplete, official first."""
        out = [(mid, mid) for mid in _official_ids()]
        out.append((RANDOM, "random (generated from the seed)"))
        out += [(mid, f"{mid} · {label}") for mid, (label, _) in self.file_missions().items()]
        if guild_id is not None:
            custom = await CustomMissions(self.storage).missions(guild_id)
            out += [(mid, f"{mid} · {data['name']}") for mid, data in custom.items()]
        return out

    async def exists(self, guild_id: int, mission: str) -> bool:
        return any(mid == mission for mid, _ in await self.choices(guild_id))

    async def timeline_source(self, guild_id: int, mission: str) -> dict[str, Any] | None:
        """Where the flight machine gets the timeline: {'official': id} / {'file': path} / {'data': {...}}."""
        if mission in _official_ids():
            return {"official": mission}
        if mission == RANDOM:
            return {"random": True}
        files = self.file_missions()
        if mission in files:
            return {"file": str(files[mission][1])}
        custom = await CustomMissions(self.storage).missions(guild_id)
        if mission in custom:
            return {"data": custom[mission]["timeline"]}
        return None
