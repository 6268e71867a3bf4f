"""Which recording the next campaign mission flies (rulebook §6.1: chosen at random).

Seeded, so a campaign stored after a restart draws the same recordings again.  The official full
missions are drawn without repetition inside a campaign; a crew that asked for generated
missions gets a generator seed instead.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass

FULL_MISSIONS: tuple[str, ...] = tuple(f"S2-{n}" for n in range(1, 9))  # the mission CD, tracks 9-16


@dataclass(frozen=True, slots=True)
class Recording:
    """An official recording id, or a seed for engine.flight.generator (preset 'mission')."""

    official: str | None = None
    generated_seed: int | None = None

    @property
    def mission(self) -> str:
        return self.official if self.official is not None else f"G-mission-{self.generated_seed}"


def choose_recording(
    campaign_seed: int, index: int, flown: Collection[str] = (), *, generated: bool = False
) -> Recording:
    """The recording of mission `index` (0-based) of the campaign seeded `campaign_seed`."""
    rng = random.Random(f"campaign:{campaign_seed}:{index}")
    if generated:
        return Recording(generated_seed=rng.randrange(2**31))
    left = [m for m in FULL_MISSIONS if m not in flown] or list(FULL_MISSIONS)
    return Recording(official=rng.choice(left))
