"""The replay and what-if texts in the bot's four languages (en, ru, cs, sk).

Kept in this extension (not in bot/locales) so the feature lands without touching the shared
catalogues; `text()` falls back to English for an unknown language.
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "not_found": "No finished flight {flight} on this server.",
        "cannot_replay": "This flight cannot be replayed: {reason}",
        "not_crew": "Only the crew of that flight can ask what if.",
        "no_board": "You had no action board in that flight.",
        "too_many_cards": "You held more cards than the editor can show.",
        "bad_plan": "This what-if is out of date; start again with /whatif.",
        "replay_title": "Replay · {mission} · {outcome}, score {total}",
        "replay_footer": "Flight {flight} · re-resolved from the stored game",
        "log_file": "The captain's log of flight {flight}.",
        "whatif_title": "What if {name} had played differently? · {mission}",
        "whatif_help": "Choose a card you held or a planned turn, then where it goes and which half is up; "
        "**Take back** empties a turn; then **Resolve**. "
        "Only you see this, and what-if results never enter the logbook.",
        "reset": "Real plan",
        "run": "Resolve what-if",
        "real": "Real flight",
        "alt": "What if",
        "score_line": "Score {real} → {alt} ({delta:+d})",
        "outcome_line": "{real} → {alt}",
        "damage_line": "Damage {zone}: {real} → {alt}",
        "diverges": "First difference: turn {turn}",
        "same": "Nothing changes: the flight goes exactly the same way.",
        "survived": "survived",
        "destroyed": "destroyed",
        "not_logged": "Not recorded in the logbook or the leaderboard.",
        "pictures_button": "🖼️ Turn by turn",
        "editing_android": "You planned for the androids: this is the board of 🤖 {android}.",
        "selected": "Selected: {card}",
        "editor_footer": "Flight {flight} · turns changed: {changed}",
        "choose_board": "Whose board to edit",
    },
    "ru": {
        "not_found": "На этом сервере нет завершённого полёта {flight}.",
        "cannot_replay": "Этот полёт нельзя воспроизвести: {reason}",
        "not_crew": "Спросить «а что если» может только экипаж этого полёта.",
        "no_board": "В этом полёте у вас не было планшета действий.",
        "too_many_cards": "У вас было больше карт, чем помещается в редактор.",
        "bad_plan": "Этот вариант устарел; начните заново с /whatif.",
        "replay_title": "Повтор · {mission} · {outcome}, очки {total}",
        "replay_footer": "Полёт {flight} · заново разрешён по сохранённой игре",
        "log_file": "Бортовой журнал полёта {flight}.",
        "whatif_title": "А что если бы {name} сыграл(а) иначе? · {mission}",
        "whatif_help": "Выберите карту, которая у вас была, или запланированный ход, "
        "затем куда её положить и какой стороной; "
        "**Забрать** освобождает ход; затем **Разрешить**. "
        "Это видите только вы, и варианты не попадают в журнал.",
        "reset": "Настоящий план",
        "run": "Разрешить вариант",
        "real": "Настоящий полёт",
        "alt": "А что если",
        "score_line": "Очки {real} → {alt} ({delta:+d})",
        "outcome_line": "{real} → {alt}",
        "damage_line": "Урон {zone}: {real} → {alt}",
        "diverges": "Первое отличие: ход {turn}",
        "same": "Ничего не меняется: полёт идёт точно так же.",
        "survived": "выжили",
        "destroyed": "уничтожены",
        "not_logged": "Не попадает в журнал и таблицу рекордов.",
        "pictures_button": "🖼️ Ход за ходом",
        "editing_android": "Вы планировали за андроидов: это планшет 🤖 {android}.",
        "selected": "Выбрано: {card}",
        "editor_footer": "Полёт {flight} · изменено ходов: {changed}",
        "choose_board": "Чей планшет править",
    },
    "cs": {
        "not_found": "Na tomto serveru není dokončený let {flight}.",
        "cannot_replay": "Tento let nelze přehrát: {reason}",
        "not_crew": "„Co kdyby“ se může ptát jen posádka toho letu.",
        "no_board": "V tom letu jste neměli žádný plán akcí.",
        "too_many_cards": "Měli jste víc karet, než editor ukáže.",
        "bad_plan": "Tato varianta je zastaralá; začněte znovu příkazem /whatif.",
        "replay_title": "Záznam · {mission} · {outcome}, skóre {total}",
        "replay_footer": "Let {flight} · znovu vyhodnocen z uložené hry",
        "log_file": "Lodní deník letu {flight}.",
        "whatif_title": "Co kdyby {name} hrál(a) jinak? · {mission}",
        "whatif_help": "Vyberte kartu, kterou jste měli, nebo naplánované kolo, "
        "pak kam patří a kterou polovinou nahoru; "
        "**Vzít zpět** kolo vyprázdní; pak **Vyhodnotit**. "
        "Vidíte to jen vy a varianty se nezapisují do deníku.",
        "reset": "Skutečný plán",
        "run": "Vyhodnotit variantu",
        "real": "Skutečný let",
        "alt": "Co kdyby",
        "score_line": "Skóre {real} → {alt} ({delta:+d})",
        "outcome_line": "{real} → {alt}",
        "damage_line": "Poškození {zone}: {real} → {alt}",
        "diverges": "První rozdíl: kolo {turn}",
        "same": "Nic se nemění: let proběhne úplně stejně.",
        "survived": "přežili",
        "destroyed": "zničeni",
        "not_logged": "Nezapisuje se do deníku ani do žebříčku.",
        "pictures_button": "🖼️ Kolo po kole",
        "editing_android": "Plánovali jste za androidy: toto je plán 🤖 {android}.",
        "selected": "Vybráno: {card}",
        "editor_footer": "Let {flight} · změněných kol: {changed}",
        "choose_board": "Čí plán upravit",
    },
    "sk": {
        "not_found": "Na tomto serveri nie je dokončený let {flight}.",
        "cannot_replay": "Tento let sa nedá prehrať: {reason}",
        "not_crew": "„Čo keby“ sa môže pýtať len posádka toho letu.",
        "no_board": "V tom lete ste nemali žiadnu hráčsku tabuľku.",
        "too_many_cards": "Mali ste viac kariet, než editor ukáže.",
        "bad_plan": "Táto varianta je zastaraná; začnite znova príkazom /whatif.",
        "replay_title": "Záznam · {mission} · {outcome}, skóre {total}",
        "replay_footer": "Let {flight} · znova vyhodnotený z uloženej hry",
        "log_file": "Letový denník letu {flight}.",
        "whatif_title": "Čo keby {name} hral(a) inak? · {mission}",
        "whatif_help": "Vyberte kartu, ktorú ste mali, alebo naplánované kolo, "
        "potom kam patrí a ktorou polovicou hore; "
        "**Vziať späť** kolo vyprázdni; potom **Vyhodnotiť**. "
        "Vidíte to len vy a varianty sa nezapisujú do denníka.",
        "reset": "Skutočný plán",
        "run": "Vyhodnotiť variantu",
        "real": "Skutočný let",
        "alt": "Čo keby",
        "score_line": "Skóre {real} → {alt} ({delta:+d})",
        "outcome_line": "{real} → {alt}",
        "damage_line": "Poškodenie {zone}: {real} → {alt}",
        "diverges": "Prvý rozdiel: kolo {turn}",
        "same": "Nič sa nemení: let prebehne úplne rovnako.",
        "survived": "loď sa vrátila",
        "destroyed": "loď bola zničená",
        "not_logged": "Nezapisuje sa do denníka ani do rebríčka.",
        "pictures_button": "🖼️ Kolo po kole",
        "editing_android": "Plánovali ste za androidov: toto je tabuľka 🤖 {android}.",
        "selected": "Vybrané: {card}",
        "editor_footer": "Let {flight} · zmenených kôl: {changed}",
        "choose_board": "Čiu tabuľku upraviť",
    },
}


def text(lang: str, key: str, /, **params: object) -> str:
    table = TEXTS.get(lang, TEXTS["en"])
    raw = table.get(key, TEXTS["en"][key])
    return raw.format(**params) if params else raw
