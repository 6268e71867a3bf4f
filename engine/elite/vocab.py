"""ELITE's vocabulary as `Literal` types, with the Russian term of the seed beside each English name.

The English identifiers are ours (the seed is a Russian fan translation).  Display texts in every
language of the bot live in its catalogue (`bot/platform/locales/elite/<lang>.json`); these strings
are the stable JSON contract (data packs, logbook rows, stored games).
"""

from __future__ import annotations

from typing import Literal, TypeAlias, TypeGuard, get_args

# Игровое Поле: Заброшенная Лаборатория / Место Крушения.
MapSide: TypeAlias = Literal["abandoned_lab", "crash_site"]
# Миссии: Истребление, Захват, Разрушение, Разведка, Исследование.
MissionId: TypeAlias = Literal["extermination", "capture", "destruction", "recon", "exploration"]
# Уровень сложности: Легкий, Средний, Сложный.
EliteDifficulty: TypeAlias = Literal["easy", "medium", "hard"]
# Герои: Кинже, Кара, Вокер, Гильгамеш, Акоша, Герид.
HeroId: TypeAlias = Literal["kinje", "kara", "voker", "gilgamesh", "akosha", "gerid"]
# Рой: Цепень, Гончая, Стрелок.
SwarmType: TypeAlias = Literal["tapeworm", "hound", "shooter"]
# Боссы: Ашар, Пожиратель Разума, Огнежало, Нага, Потроха, Траэкс, Жуткоплюй (garbled in the seed),
# Оживлённый Разоритель.
BossId: TypeAlias = Literal["ashar", "mind_eater", "firewing", "naga", "guts", "traex", "dread_spitter", "ravager"]
# Фазы: Событий, Порождения Пришельцев, Действий, Активации Пришельцев, Завершения Раунда.
Phase: TypeAlias = Literal["setup", "event", "spawn", "action", "activation", "end_of_round", "over"]
# Постоянный эффект (1-16), Нет эффекта (17-21), Немедленный эффект (22-25).
EventKind: TypeAlias = Literal["persistent", "no_effect", "immediate"]
# Жетоны Исследования: Тревога Босса, Запах Битвы, Тревога Роя, Обломки, Реликвия Пришельцев,
# Удачные Обломки, Рассеянная Тревога.
ExplorationKind: TypeAlias = Literal[
    "boss_alarm", "smell_of_battle", "swarm_alarm", "debris", "alien_relic", "lucky_debris", "scattered_alarm"
]
# Колоды Экипировки: Базовое Оружие, Поиск, Инопланетные Технологии.
EquipmentDeck: TypeAlias = Literal["basic", "search", "alien_tech"]
EquipmentKind: TypeAlias = Literal["weapon", "item", "mod"]
GameResult: TypeAlias = Literal["victory", "defeat", "abandoned"]
# Поражение: Герой погиб / Пришелец в Начальной Зоне / Задача не выполнена к концу 8 Раунда.
DefeatCause: TypeAlias = Literal["hero_died", "alien_in_start_zone", "time"]
ClusterNumber: TypeAlias = Literal[1, 2, 3]

MAP_SIDES: tuple[MapSide, ...] = get_args(MapSide)
MISSIONS: tuple[MissionId, ...] = get_args(MissionId)
ELITE_DIFFICULTIES: tuple[EliteDifficulty, ...] = get_args(EliteDifficulty)
HEROES: tuple[HeroId, ...] = get_args(HeroId)
SWARM_TYPES: tuple[SwarmType, ...] = get_args(SwarmType)
BOSSES: tuple[BossId, ...] = get_args(BossId)
PHASES: tuple[Phase, ...] = get_args(Phase)
EXPLORATION_KINDS: tuple[ExplorationKind, ...] = get_args(ExplorationKind)
DEFEAT_CAUSES: tuple[DefeatCause, ...] = get_args(DefeatCause)
GAME_RESULTS: tuple[GameResult, ...] = get_args(GameResult)
CLUSTERS: tuple[ClusterNumber, ...] = get_args(ClusterNumber)


def is_swarm(alien: SwarmType | BossId) -> TypeGuard[SwarmType]:
    """True for a swarm type (the other aliens are bosses)."""
    return alien in SWARM_TYPES


def is_boss(alien: SwarmType | BossId) -> TypeGuard[BossId]:
    """True for a boss."""
    return alien in BOSSES
