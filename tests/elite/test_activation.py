"""The Alien Activation helper against the rulebook's worked example, and hero damage tracks."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.elite.activation import ActivationError, apply_damage, hit_chance, roll_ability
from engine.elite.datapack import AlienAbility, HeroTrack


class LoadedDice(random.Random):
    """A Random whose d6 rolls come from a list (the rulebook's example rolls)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self._faces: Iterator[int] = iter(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return next(self._faces)


SHOOTER = AlienAbility(range=3, hit_value=4)
TAPEWORM = AlienAbility(range=1, hit_value=4)
FIREWING = AlienAbility(range=2, fixed_damage=1)


def test_the_rulebooks_activation_example() -> None:
    # Tapeworm: Gilgamesh in range 1, the Hit die shows 3: no damage.
    (gil,) = roll_ability(LoadedDice([3]), TAPEWORM, {"gilgamesh": 1})
    assert (gil.rolls, gil.damage) == ((3,), 0)
    # Firewing: Gerid within range 2 takes 1 damage, no roll.
    (ger,) = roll_ability(LoadedDice([]), FIREWING, {"gerid": 1})
    assert (ger.rolls, ger.damage) == ((), 1)
    # Shooters: 2 in range of each hero, 2 Hit dice each; Gerid rolls 5 and 1 and takes 1.
    gil2, ako, ger2 = roll_ability(LoadedDice([4, 2, 6, 5, 5, 1]), SHOOTER, {"gilgamesh": 2, "akosha": 2, "gerid": 2})
    assert [r.damage for r in (gil2, ako, ger2)] == [1, 2, 1]
    assert ger2.rolls == (5, 1) and ger2.aliens_in_range == 2


def test_heroes_out_of_range_are_skipped_and_unrollable_abilities_refused() -> None:
    assert roll_ability(random.Random(1), SHOOTER, {"kara": 0}) == ()
    with pytest.raises(ActivationError):
        roll_ability(random.Random(1), AlienAbility(), {"kara": 1})
    with pytest.raises(ActivationError):
        roll_ability(random.Random(1), SHOOTER, {"kara": -1})


def test_hit_chances() -> None:
    assert [round(hit_chance(v), 3) for v in range(1, 7)] == [1.0, 0.833, 0.667, 0.5, 0.333, 0.167]
    with pytest.raises(ValueError):
        hit_chance(7)


TRACK = HeroTrack(hero="gerid", length=8, thresholds=(3, 6))


def test_damage_crossing_thresholds_locks_dice_and_healing_frees_them() -> None:
    assert apply_damage(TRACK, 0, 2) == apply_damage(TRACK, 0, 2)
    r = apply_damage(TRACK, 2, 1)
    assert (r.position, r.dice_locked, r.died) == (3, 1, False)
    r = apply_damage(TRACK, 0, 7)
    assert (r.position, r.dice_locked, r.died) == (7, 2, False)
    r = apply_damage(TRACK, 7, -5)
    assert (r.position, r.dice_locked) == (2, -2)
    assert apply_damage(TRACK, 1, -5).position == 0


def test_moving_past_the_last_cell_kills_the_hero() -> None:
    r = apply_damage(TRACK, 6, 2)
    assert r.died
    with pytest.raises(ValueError):
        apply_damage(TRACK, 8, 1)


def test_the_game_rolls_with_pack_values_or_given_ones() -> None:
    from engine.common.clock import ManualClock
    from engine.elite.datapack import load_pack
    from engine.elite.game import EliteGame, GameError
    from engine.elite.setup import EliteConfig

    cfg = EliteConfig(map="crash_site", mission="recon", difficulty="easy", players=2, heroes=("kara", "gerid"))
    pack = load_pack({"swarm": [{"type": "shooter", "movement": 1, "ability": {"range": 3, "hit_value": 4}}]})
    game = EliteGame(cfg, 1, ManualClock(), pack)
    with pytest.raises(GameError):
        game.roll_alien("shooter", {"kara": 1})  # not in the setup phase
    game.begin_round()
    game.spawn()
    (kara,) = game.roll_alien("shooter", {"kara": 3})
    assert len(kara.rolls) == 3 and kara.damage == sum(1 for r in kara.rolls if r >= 4)
    with pytest.raises(GameError, match="no_alien_values"):
        game.roll_alien("naga", {"kara": 1})
    (gerid,) = game.roll_alien("naga", {"gerid": 1}, AlienAbility(fixed_damage=2))
    assert gerid.damage == 2


def test_the_game_tracks_hero_damage_when_the_pack_has_the_track() -> None:
    from engine.common.clock import ManualClock
    from engine.elite.datapack import load_pack
    from engine.elite.game import EliteGame, GameError
    from engine.elite.setup import EliteConfig

    cfg = EliteConfig(map="crash_site", mission="recon", difficulty="easy", players=2, heroes=("kara", "gerid"))
    game = EliteGame(cfg, 1, ManualClock(), load_pack({"heroes": [{"hero": "gerid", "length": 4, "thresholds": [2]}]}))
    assert game.damage_hero("kara", 1) is None  # no track: the crew moves the marker
    first = game.damage_hero("gerid", 2)
    assert first is not None and (first.position, first.dice_locked) == (2, 1)
    with pytest.raises(GameError):
        game.damage_hero("akosha", 1)
    last = game.damage_hero("gerid", 2)
    assert last is not None and last.died
    assert (game.phase, game.result, game.cause) == ("over", "defeat", "hero_died")
