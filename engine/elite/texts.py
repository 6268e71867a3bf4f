"""ELITE's display and spoken texts in English and Russian, kept out of the rules.

Keys are `group.id` (e.g. ``mission.recon``); `text()` formats with keyword arguments and falls
back to English for a language without a table (Czech) or a missing key.  The Russian terms are
the seed's (a fan translation); the English ones are ours.  No card text is stored here.
"""

from __future__ import annotations

from typing import Final

from engine.elite.timer import TimerCall
from engine.vocab import Language

_EN: Final[dict[str, str]] = {
    "map.abandoned_lab": "Abandoned Lab",
    "map.crash_site": "Crash Site",
    "mission.extermination": "Extermination",
    "mission.capture": "Capture",
    "mission.destruction": "Destruction",
    "mission.recon": "Recon",
    "mission.exploration": "Exploration",
    "difficulty.easy": "Easy",
    "difficulty.medium": "Medium",
    "difficulty.hard": "Hard",
    "hero.kinje": "Kinje",
    "hero.kara": "Kara",
    "hero.voker": "Voker",
    "hero.gilgamesh": "Gilgamesh",
    "hero.akosha": "Akosha",
    "hero.gerid": "Gerid",
    "swarm.tapeworm": "Tapeworm",
    "swarm.hound": "Hound",
    "swarm.shooter": "Shooter",
    "boss.ashar": "Ashar",
    "boss.mind_eater": "Mind Eater",
    "boss.firewing": "Firewing",
    "boss.naga": "Naga",
    "boss.guts": "Guts",
    "boss.traex": "Traex",
    "boss.dread_spitter": "Dread Spitter",
    "boss.ravager": "Animated Ravager",
    "exploration.boss_alarm": "Boss Alarm: one more Boss Spawn card in the next Spawn Phase",
    "exploration.smell_of_battle": "Smell of Battle: all aliens move 1 more cell in the next Alien Activation",
    "exploration.swarm_alarm": "Swarm Alarm: one more Swarm Spawn card in the next Spawn Phase",
    "exploration.debris": "Debris: no effect",
    "exploration.alien_relic": "Alien Relic: stays face up until the heroes remove it",
    "exploration.lucky_debris": "Lucky Debris: draw 1 Search card",
    "exploration.scattered_alarm": "Scattered Alarm: one fewer Boss Spawn card in the next Spawn Phase",
    "phase.event": "Event Phase",
    "phase.spawn": "Alien Spawn",
    "phase.action": "Action Phase",
    "phase.activation": "Alien Activation",
    "phase.end_of_round": "End of Round",
    "event.persistent": "persistent effect",
    "event.no_effect": "no effect",
    "event.immediate": "immediate effect",
    "result.victory": "Victory",
    "result.defeat": "Defeat",
    "result.abandoned": "Abandoned",
    "cause.hero_died": "a hero died",
    "cause.alien_in_start_zone": "an alien reached the Starting Zone",
    "cause.time": "the mission was not complete after round 8",
    "say.round": "Round {round} of 8.",
    "say.event": "Event {number}: {kind}.",
    "say.spawn_draw": "Draw {count} Swarm Spawn cards.",
    "say.boss": "Boss: {boss}, at cluster {cluster}.",
    "say.all_clear": "All clear.",
    "say.boss_deck_empty": "The boss deck is empty.",
    "say.get_ready": "Action Phase. Dice ready.",
    "say.mark_90": "One minute thirty.",
    "say.mark_60": "One minute.",
    "say.mark_30": "Thirty seconds.",
    "say.count": "{seconds}",
    "say.times_up": "Time's up!",
    "say.paused": "Timer paused: no actions, no talking.",
    "say.resumed": "Timer running.",
    "say.time_added": "{seconds} seconds added.",
    "say.time_removed": "{seconds} seconds removed.",
    "say.activation": "Alien Activation.",
    "say.extra_move": "Every alien moves {extra} more.",
    "say.victory": "Victory. The heroes are home.",
    "say.defeat": "Defeat: {cause}.",
    "say.swarm_card": "{swarm} ×{count} at cluster {cluster}.",
    "say.swarm_card_choose": "{swarm} ×{count}, cluster of your choice.",
    "say.swarm_activates": "They activate now: ability, then move.",
    "say.boss_health": "Health {health}.",
    "say.modifiers": "Exploration: {swarm:+d} swarm, {boss:+d} boss cards.",
    "setup.cells": "Objective cells: {cells}",
    "setup.weapons": "Deal {count} Basic Weapons face up; each hero takes one.",
    "setup.clusters": "Cluster tokens on the Cluster cells, in reading order: {tokens}",
    "setup.timeline": "Event timeline: 8 face-down cards (the director keeps them).",
    "setup.dice": "Action dice: {dice} per hero (solo: one pool of 5) and 3 Hit dice.",
    "setup.traps": "Put 2 Trap tokens next to each Capture token ({count} in all).",
    "setup.destruction": "Each hero carries one Destruction token of each kind.",
    "setup.recon": "Put {count} Recon tokens face up in the Starting Zone.",
    "setup.exploration": "The director deals {count} Exploration tokens face down, one per objective cell.",
    "ui.next": "Next ▶",
    "ui.start": "Start ⏱",
    "ui.pause": "Pause / Resume",
    "ui.peek": "Peek",
    "ui.reveal": "Reveal",
    "ui.victory": "Victory",
    "ui.defeat": "Defeat",
    "ui.stop": "Stop",
    "ui.running_here": "A game is already running here (Stop it first).",
    "ui.pick_heroes": "Pick {count} heroes.",
    "ui.setup_posted": "Setup posted below.",
    "ui.no_voice": "Voice: {why}. The game runs in text.",
    "ui.no_game": "No game is running here.",
    "ui.which_token": "Which token?",
    "ui.cause": "Cause of the defeat?",
    "ui.revealed": "Revealed.",
    "ui.cell": "Cell {cell}",
    "ui.peeked": "Cell {cell}: someone peeked.",
    "ui.events": "Events in play: {events}",
    "ui.exploration": "Exploration: {tokens}",
    "ui.boss_deck": "Boss deck: {left}/20",
    "ui.cluster": "cluster {cluster}",
    "ui.damage": "{hero}: {dice} → {damage} damage",
    "ui.locks": "crosses a threshold: lock {count} Action die",
    "ui.dies": "is killed: the game is lost",
    "checklist.times_up": (
        "1. No more rolling; unresolved alien faces are resolved now.\n"
        "2. Each ready piece of equipment may be used once.\n"
        "3. Resolve deferred Search tokens and Alien Tech draws.\n"
        "4. Heroes within range 1 and line of sight may trade equipment."
    ),
    "checklist.end_of_round": (
        "1. Victory? Objective complete and every hero in the Starting Zone.\n"
        "2. Return the dice from all Lock slots; remove completed events and ready objective tokens.\n"
        "3. Turn the Search tokens light side up."
    ),
}

_RU: Final[dict[str, str]] = {
    "map.abandoned_lab": "Заброшенная Лаборатория",
    "map.crash_site": "Место Крушения",
    "mission.extermination": "Истребление",
    "mission.capture": "Захват",
    "mission.destruction": "Разрушение",
    "mission.recon": "Разведка",
    "mission.exploration": "Исследование",
    "difficulty.easy": "Легкий",
    "difficulty.medium": "Средний",
    "difficulty.hard": "Сложный",
    "hero.kinje": "Кинже",
    "hero.kara": "Кара",
    "hero.voker": "Вокер",
    "hero.gilgamesh": "Гильгамеш",
    "hero.akosha": "Акоша",
    "hero.gerid": "Герид",
    "swarm.tapeworm": "Цепень",
    "swarm.hound": "Гончая",
    "swarm.shooter": "Стрелок",
    "boss.ashar": "Ашар",
    "boss.mind_eater": "Пожиратель Разума",
    "boss.firewing": "Огнежало",
    "boss.naga": "Нага",
    "boss.guts": "Потроха",
    "boss.traex": "Траэкс",
    "boss.dread_spitter": "Жуткоплюй",
    "boss.ravager": "Оживлённый Разоритель",
    "exploration.boss_alarm": "Тревога Босса: на 1 карту Босса больше в следующей Фазе Порождения",
    "exploration.smell_of_battle": "Запах Битвы: все Пришельцы проходят на 1 Клетку больше в следующей Активации",
    "exploration.swarm_alarm": "Тревога Роя: на 1 карту Порождения Роя больше в следующей Фазе Порождения",
    "exploration.debris": "Обломки: нет эффекта",
    "exploration.alien_relic": "Реликвия Пришельцев: остаётся лицом вверх, пока Герои её не уберут",
    "exploration.lucky_debris": "Удачные Обломки: возьмите 1 карту Поиска",
    "exploration.scattered_alarm": "Рассеянная Тревога: на 1 карту Босса меньше в следующей Фазе Порождения",
    "phase.event": "Фаза Событий",
    "phase.spawn": "Фаза Порождения Пришельцев",
    "phase.action": "Фаза Действий",
    "phase.activation": "Фаза Активации Пришельцев",
    "phase.end_of_round": "Фаза Завершения Раунда",
    "event.persistent": "постоянный эффект",
    "event.no_effect": "нет эффекта",
    "event.immediate": "немедленный эффект",
    "result.victory": "Победа",
    "result.defeat": "Поражение",
    "result.abandoned": "Прервано",
    "cause.hero_died": "Герой погиб",
    "cause.alien_in_start_zone": "Пришелец в Начальной Зоне",
    "cause.time": "Задача не выполнена к концу 8 Раунда",
    "say.round": "Раунд {round} из 8.",
    "say.event": "Событие {number}: {kind}.",
    "say.spawn_draw": "Возьмите карт Порождения Роя: {count}.",
    "say.boss": "Босс: {boss}, Кластер {cluster}.",
    "say.all_clear": "Всё чисто.",
    "say.boss_deck_empty": "Колода Боссов пуста.",
    "say.get_ready": "Фаза Действий. Кубики наготове.",
    "say.mark_90": "Одна минута тридцать.",
    "say.mark_60": "Одна минута.",
    "say.mark_30": "Тридцать секунд.",
    "say.count": "{seconds}",
    "say.times_up": "Время вышло!",
    "say.paused": "Таймер остановлен: никаких действий и обсуждений.",
    "say.resumed": "Таймер идёт.",
    "say.time_added": "Добавлено секунд: {seconds}.",
    "say.time_removed": "Убрано секунд: {seconds}.",
    "say.activation": "Активация Пришельцев.",
    "say.extra_move": "Все Пришельцы проходят ещё {extra}.",
    "say.victory": "Победа. Герои вернулись.",
    "say.defeat": "Поражение: {cause}.",
    "say.swarm_card": "{swarm} ×{count}, Кластер {cluster}.",
    "say.swarm_card_choose": "{swarm} ×{count}, Кластер на ваш выбор.",
    "say.swarm_activates": "Они активируются сейчас: Способность, затем Движение.",
    "say.boss_health": "Здоровье {health}.",
    "say.modifiers": "Исследование: {swarm:+d} карт Роя, {boss:+d} карт Боссов.",
    "setup.cells": "Ячейки Задачи: {cells}",
    "setup.weapons": "Откройте {count} карт Базового Оружия; каждый Герой берёт одну.",
    "setup.clusters": "Жетоны Кластера на ячейках Кластера, по порядку чтения: {tokens}",
    "setup.timeline": "Шкала Событий: 8 карт лицом вниз (их держит бот).",
    "setup.dice": "Кубики Действий: {dice} на Героя (соло: общий запас из 5) и 3 Кубика Попаданий.",
    "setup.traps": "Положите по 2 жетона Ловушек рядом с каждым жетоном Захвата (всего {count}).",
    "setup.destruction": "Каждый Герой несёт по одному жетону Разрушения каждого вида.",
    "setup.recon": "Положите {count} жетонов Разведки лицом вверх в Начальную Зону.",
    "setup.exploration": "Бот раскладывает {count} жетонов Исследования лицом вниз, по одному на ячейку Задачи.",
    "ui.next": "Дальше ▶",
    "ui.start": "Старт ⏱",
    "ui.pause": "Пауза / Продолжить",
    "ui.peek": "Проверить",
    "ui.reveal": "Раскрыть",
    "ui.victory": "Победа",
    "ui.defeat": "Поражение",
    "ui.stop": "Стоп",
    "ui.running_here": "Здесь уже идёт игра (сначала нажмите Стоп).",
    "ui.pick_heroes": "Выберите Героев: {count}.",
    "ui.setup_posted": "Подготовка опубликована ниже.",
    "ui.no_voice": "Голос: {why}. Игра идёт в тексте.",
    "ui.no_game": "Здесь не идёт игра.",
    "ui.which_token": "Какой жетон?",
    "ui.cause": "Причина поражения?",
    "ui.revealed": "Раскрыто.",
    "ui.cell": "Ячейка {cell}",
    "ui.peeked": "Ячейка {cell}: кто-то проверил жетон.",
    "ui.events": "События в игре: {events}",
    "ui.exploration": "Исследование: {tokens}",
    "ui.boss_deck": "Колода Боссов: {left}/20",
    "ui.cluster": "Кластер {cluster}",
    "ui.damage": "{hero}: {dice} → урон {damage}",
    "ui.locks": "пересекает Порог: заблокируйте Кубиков Действий: {count}",
    "ui.dies": "погибает: игра проиграна",
    "checklist.times_up": (
        "1. Больше никаких бросков; неразыгранные результаты Пришельцев разыгрываются сейчас.\n"
        "2. Каждую готовую Экипировку можно использовать один раз.\n"
        "3. Разыграйте отложенные жетоны Поиска и Инопланетные Технологии.\n"
        "4. Герои в радиусе 1 и на Линии Видимости могут обменяться Экипировкой."
    ),
    "checklist.end_of_round": (
        "1. Победа? Задача выполнена и все Герои в Начальной Зоне.\n"
        "2. Верните кубики из Слотов Блокировки; уберите выполненные События и готовые жетоны Задач.\n"
        "3. Переверните жетоны Поиска светлой стороной вверх."
    ),
}

TEXTS: Final[dict[str, dict[str, str]]] = {"en": _EN, "ru": _RU}


def text(lang: Language, key: str, **values: object) -> str:
    """The text for `key` in `lang` (English when missing), formatted with `values`."""
    template = TEXTS.get(lang, _EN).get(key) or _EN[key]
    return template.format(**values) if values else template


def call_text(lang: Language, call: TimerCall) -> str:
    """The spoken words of one timer call."""
    if call.kind == "mark":
        return text(lang, f"say.mark_{call.seconds}")
    if call.kind == "count":
        return text(lang, "say.count", seconds=call.seconds)
    return text(lang, "say.times_up")
