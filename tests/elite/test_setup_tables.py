"""Setup tables against the rulebook's mission pages: every map x mission x player count.

The expected cells are the rulebook's own rows, in its own notation ("с 9 по 11" = 9 to 11,
"Все" = all twelve), parsed here independently of the engine's table.
"""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from engine.elite import tables
from engine.elite.setup import EliteConfig, event_kind, make_setup, objective_cells
from engine.elite.vocab import HEROES, MAP_SIDES, MISSIONS, MapSide, MissionId

# Mission -> map -> rows "1-2", "3", "4", "5", "6", copied from the seed's mission pages.
RULEBOOK: dict[str, dict[str, list[str]]] = {
    "extermination": {
        "abandoned_lab": [
            "1, 4 и 11",
            "2, 4, 6 и 11",
            "2, 4, 6, 9 и 10",
            "1, 3, 5, 7, 8 и 11",
            "1, 4, 5, 7 и с 9 по 11",
        ],
        "crash_site": ["7, 9 и 10", "2, 6, 9 и 10", "1, 3, 7, 9 и 10", "1, 4 и с 7 по 10", "2, 3, 5 и с 9 по 12"],
    },
    "capture": {
        "abandoned_lab": ["5 и 11", "3, 7 и 11", "2, 5, 6 и 11", "1, 3, 7, 9 и 11", "2, 5, 6, 7, 9 и 11"],
        "crash_site": ["6 и 10", "7, 10 и 12", "1 и с 9 по 11", "3, 6 и с 10 по 12", "1, 3, 7 и с 9 по 11"],
    },
    "destruction": {
        "abandoned_lab": [
            "1, 3, 7 и 11",
            "1, 3, 4, 6, 7 и 11",
            "с 1 по 4, 6, 7, 11 и 12",
            "1, 2, с 4 по 7 и с 9 по 12",
            "Все",
        ],
        "crash_site": [
            "6, 7, 9 и 10",
            "5, 7 и с 9 по 12",
            "2, с 4 по 7, 9, 10 и 12",
            "с 1 по 3, с 5 по 10 и 12",
            "Все",
        ],
    },
    "recon": {
        "abandoned_lab": ["6 и 11", "4, 7 и 11", "2, 7, 11 и 12", "1, 5, 7, 9 и 11", "2, 4, 6, 9, 11 и 12"],
        "crash_site": ["4 и 7", "1, 7 и 10", "1, 6, 9 и 10", "1, 4, 7, 9 и 11", "2 и с 7 по 11"],
    },
    "exploration": {
        "abandoned_lab": [
            "4, 7, 10 и 12",
            "1, 3, 4, 7, 10 и 12",
            "3, 4, 5, с 7 по 9, 11 и 12",
            "1, 3, 4, 5 и с 7 по 12",
            "Все",
        ],
        "crash_site": ["1, 8, 10 и 11", "2, 3, 5, 7, 9 и 11", "1, 3, 5, с 7 по 9, 11 и 12", "1 и с 4 по 12", "Все"],
    },
}


def parse_row(row: str) -> tuple[int, ...]:
    if row == "Все":
        return tuple(range(1, 13))
    cells: list[int] = []
    for part in re.split(r",\s*|\s+и\s+", row):
        span = re.fullmatch(r"с (\d+) по (\d+)", part.strip())
        if span:
            cells.extend(range(int(span[1]), int(span[2]) + 1))
        else:
            cells.append(int(part))
    return tuple(cells)


def config(players: int = 3, **kw: object) -> EliteConfig:
    heroes = HEROES[: 2 if players == 1 else players]
    fields: dict[str, object] = {
        "map": "abandoned_lab",
        "mission": "extermination",
        "difficulty": "medium",
        "players": players,
        "heroes": heroes,
    }
    fields.update(kw)
    return EliteConfig.model_validate(fields)


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize("map_side", MAP_SIDES)
@pytest.mark.parametrize("players", range(1, 7))
def test_objective_cells_match_the_rulebook(mission: MissionId, map_side: MapSide, players: int) -> None:
    row = RULEBOOK[mission][map_side][max(0, players - 2)]
    assert objective_cells(mission, map_side, players) == parse_row(row)


@pytest.mark.parametrize("players", range(1, 7))
def test_cell_counts_follow_the_missions_arithmetic(players: int) -> None:
    band = max(2, players)
    for map_side in MAP_SIDES:
        assert len(objective_cells("extermination", map_side, players)) == max(3, band + 1)
        assert len(objective_cells("capture", map_side, players)) == band
        assert len(objective_cells("destruction", map_side, players)) == 2 * band
        assert len(objective_cells("recon", map_side, players)) == band
        assert len(objective_cells("exploration", map_side, players)) == 2 * band


def test_player_count_outside_one_to_six_is_refused() -> None:
    with pytest.raises(ValueError):
        objective_cells("recon", "crash_site", 7)
    with pytest.raises(ValidationError):
        config(players=0)


def test_solo_takes_two_heroes_five_dice_and_the_two_player_rows() -> None:
    solo = config(players=1, mission="recon")
    setup = make_setup(solo, seed=1)
    assert solo.solo and solo.spawn_players == 2 and solo.table_band == 2
    assert setup.action_dice == tables.SOLO_ACTION_DICE == 5
    assert setup.objective_cells == objective_cells("recon", "abandoned_lab", 2)
    assert setup.tokens.recon_in_start_zone == 2
    with pytest.raises(ValidationError, match="need 2 heroes"):
        config(players=1, heroes=("kara",))


def test_heroes_must_match_players_and_be_distinct() -> None:
    with pytest.raises(ValidationError, match="need 3 heroes"):
        config(players=3, heroes=("kara", "voker"))
    with pytest.raises(ValidationError, match="only once"):
        config(players=2, heroes=("kara", "kara"))
    with pytest.raises(ValidationError):
        config(players=2, heroes=("kara", "nobody"))


@pytest.mark.parametrize("players", range(1, 7))
def test_basic_weapons_dealt_are_heroes_plus_two(players: int) -> None:
    setup = make_setup(config(players=players), seed=3)
    assert setup.basic_weapons == len(setup.config.heroes) + 2
    assert setup.action_dice == (5 if players == 1 else 4)


def test_mission_tokens_per_mission() -> None:
    assert make_setup(config(players=4, mission="capture"), 1).tokens.traps == 8
    assert make_setup(config(players=4, mission="destruction"), 1).tokens.destruction_per_hero == 2
    assert make_setup(config(players=4, mission="exploration"), 1).tokens.exploration_face_down == 8
    assert make_setup(config(players=6, mission="capture"), 1).tokens.traps == 12  # the box holds 12 Traps


def test_cluster_tokens_are_a_shuffled_permutation() -> None:
    seen = {make_setup(config(), seed).cluster_tokens for seed in range(200)}
    assert all(sorted(p) == [1, 2, 3] for p in seen)
    assert len(seen) == 6


def test_setup_is_deterministic_per_seed() -> None:
    assert make_setup(config(), 42) == make_setup(config(), 42)
    assert make_setup(config(), 42).event_timeline != make_setup(config(), 43).event_timeline


def test_event_kinds_by_number() -> None:
    assert [event_kind(n) for n in (1, 16, 17, 21, 22, 25)] == [
        "persistent",
        "persistent",
        "no_effect",
        "no_effect",
        "immediate",
        "immediate",
    ]
    with pytest.raises(ValueError):
        event_kind(26)


def test_cluster_roll_table() -> None:
    assert [tables.cluster_for_roll(r) for r in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    for bad in (0, 7):
        with pytest.raises(ValueError):
            tables.cluster_for_roll(bad)
