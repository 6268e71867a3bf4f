"""Drawing one turn of a resolved flight: the four tracks above the ship, the ship's six stations,
the systems panel and the turn's events.

Layout (1000 x 860 px, shown by Discord at roughly 40 % on a phone): the three external tracks
stand above their zones with the ship at the bottom (space Z touches the ship, as on the table),
the internal track to the right above the systems panel.  Every threat is a card beside its
track, pushed down when cards would overlap, with a line to its space; crew are name pills
inside their station, two columns by three rows, so five crew and eight threats never overlap.
Text is at least 17 px and the numbers that matter (health, damage) 20-24 px bold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from PIL import Image, ImageDraw

from bot.games.space_alert.pictures.labels import crew_label, threat_label, token_short, turn_title, word
from bot.games.space_alert.pictures.states import CrewView, ThreatView, TurnState
from bot.platform.fonts import font as font  # the platform's DejaVu (stats/chart.py reads it here)
from bot.platform.text import strip_unsafe
from engine import board
from engine.vocab import Station

W, H = 1000, 860
BG = (18, 22, 34)
PANEL = (32, 38, 56)
INK = (236, 238, 244)
DIM = (140, 148, 170)
ZONE_RGB = {"red": (214, 64, 64), "white": (210, 214, 222), "blue": (66, 132, 230), "internal": (236, 196, 64)}
ZONE_DARK = {"red": (70, 30, 36), "white": (58, 62, 74), "blue": (28, 46, 82), "internal": (66, 58, 30)}
ENERGY = (86, 214, 120)
EMPTY = (62, 70, 92)
HIT = (255, 170, 40)
SHOT = (255, 226, 80)
DAMAGE = (232, 60, 60)
INTRUDER = (178, 98, 222)
CREW_RGB = [(120, 200, 255), (255, 150, 190), (150, 230, 150), (255, 205, 110), (200, 170, 255)]

COLUMNS = {"red": 8, "white": 243, "blue": 478, "internal": 713}
COL_W = {"red": 227, "white": 227, "blue": 227, "internal": 279}
TRACK_TOP, TRACK_BOTTOM = 92, 462
DAMAGE_Y = 470
SHIP_Y = 514
DECK_H = 166


def fit(text: str, size: int, width: int, bold: bool = False) -> str:
    """`text` cut with an ellipsis so that it is at most `width` px wide (the last resort of `fitted`)."""
    f = font(size, bold)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


@dataclass(frozen=True, slots=True)
class Fitted:
    """A text laid out for a box: its lines, the font size, and whether it had to be cut."""

    lines: tuple[str, ...]
    size: int
    cut: bool = False


def wrap(text: str, size: int, width: int, bold: bool = False) -> tuple[list[str], bool]:
    """`text` in lines at most `width` px wide, broken at spaces; a word wider than a line is broken
    between letters (the second value says so)."""
    f = font(size, bold)
    lines: list[str] = []
    current = ""
    broken = False
    # break at spaces and after a hyphen ("Истребитель-" / "фантом"), as a typesetter would
    for piece in re.findall(r"\S+?-(?=\S)|\S+", text):
        glue = "" if current.endswith("-") else " "
        trial = f"{current}{glue}{piece}" if current else piece
        if f.getlength(trial) <= width:
            current = trial
            continue
        if current:
            lines.append(current)
        while len(piece) > 1 and f.getlength(piece) > width:
            k = len(piece) - 1
            while k > 1 and f.getlength(piece[:k]) > width:
                k -= 1
            lines.append(piece[:k])
            piece, broken = piece[k:], True
        current = piece
    if current:
        lines.append(current)
    return lines, broken


def fitted(text: str, size: int, width: int, bold: bool = False, *, min_size: int = 12, lines: int = 1) -> Fitted:
    """The rule that keeps names whole (issue 24): the largest size from `size` down to `min_size`
    at which `text` fits `width` on one line; else, with room for `lines` lines, wrapped at spaces
    (at the largest size that needs no word broken, else at `min_size` broken between letters).
    Only a text that still does not fit is cut with an ellipsis (`cut`, which the tests forbid for
    every threat name in every language and for long crew names)."""
    for s in range(size, min_size - 1, -1):
        if font(s, bold).getlength(text) <= width:
            return Fitted((text,), s)
    if lines > 1:
        for s in range(size, min_size - 1, -1):
            wrapped, broken = wrap(text, s, width, bold)
            if len(wrapped) <= lines and not broken:
                return Fitted(tuple(wrapped), s)
        wrapped, _ = wrap(text, min_size, width, bold)
        if len(wrapped) <= lines:
            return Fitted(tuple(wrapped), min_size)
        kept = [*wrapped[: lines - 1], fit(" ".join(wrapped[lines - 1 :]), min_size, width, bold)]
        return Fitted(tuple(kept), min_size, cut=True)
    return Fitted((fit(text, min_size, width, bold),), min_size, cut=True)


def station_box(st: str) -> tuple[int, int, int, int]:
    deck, zone = st.split("_", 1)
    x = COLUMNS[zone]
    y = SHIP_Y + (0 if deck == "upper" else DECK_H + 4)
    return x, y, x + COL_W[zone], y + DECK_H


@dataclass(slots=True)
class Marks:
    """What the turn's events highlight, gathered once from the event list."""

    hit: dict[int, int]  # threat number -> damage dealt this turn
    shot_from: dict[int, set[str]]  # threat number -> stations (or "space") whose weapons hit it
    fired: set[str]  # stations that fired
    attacked: dict[str, int]  # zone -> damage points taken this turn
    absorbed: dict[str, int]  # zone -> points the shields absorbed
    new_tokens: dict[str, int]  # zone -> damage tokens drawn this turn
    knocked: set[str]  # crew names knocked out this turn


def _weapon_station(weapon: str) -> str | None:
    parts = weapon.split()
    if weapon.startswith("heavy laser") and parts[-1] in board.ZONES:
        return f"upper_{parts[-1]}"
    if weapon.startswith("light laser") and parts[-1] in board.ZONES:
        return f"lower_{parts[-1]}"
    if weapon.startswith("pulse"):
        return "lower_white"
    if weapon.startswith("rocket"):
        return "lower_blue"
    if weapon.startswith("interceptor"):
        return "space"
    return None


def marks_of(events: Iterable[dict[str, Any]]) -> Marks:
    m = Marks({}, {}, set(), {}, {}, {}, set())
    for e in events:
        kind = e.get("kind")
        if kind == "threat_damage" or kind == "threat_hit":
            n = int(e.get("number", 0))
            m.hit[n] = m.hit.get(n, 0) + int(e.get("damage", e.get("amount", 0)) or 0)
            for w in e.get("weapons", []):
                st = _weapon_station(str(w))
                if st:
                    m.shot_from.setdefault(n, set()).add(st)
            if kind == "threat_hit" and e.get("station"):
                m.shot_from.setdefault(n, set()).add(str(e["station"]))
        elif kind == "fire":
            m.fired.add(str(e.get("station")))
        elif kind == "attack":
            z = str(e.get("zone"))
            m.attacked[z] = m.attacked.get(z, 0) + int(e.get("damage", 0))
            m.absorbed[z] = m.absorbed.get(z, 0) + int(e.get("absorbed", 0))
        elif kind == "damage_token":
            z = str(e.get("zone"))
            m.new_tokens[z] = m.new_tokens.get(z, 0) + 1
        elif kind == "knocked_out":
            m.knocked.add(str(e.get("player")))
    return m


class Painter:
    """One picture: a canvas and the drawing steps, in painting order."""

    def __init__(
        self,
        state: TurnState,
        lang: str,
        track_ids: dict[str, str],
        height: int = H,
        every_fate: bool = False,
        turns: int = board.TURNS,
    ) -> None:
        self.s = state
        self.turns = turns  # the resolution's turns (Replay.turns): "Turn 5/12", then the jump
        self.every_fate = every_fate  # the overview keeps every threat on its track with its fate
        self.lang = lang
        self.tracks = track_ids  # column -> track id
        self.img = Image.new("RGB", (W, height), BG)
        self.d = ImageDraw.Draw(self.img)
        self.marks = marks_of(state.events)
        self.card_anchor: dict[int, tuple[int, int]] = {}  # threat number -> left middle of its card
        self.boxes: list[tuple[str, tuple[int, int, int, int]]] = []  # what was placed where (layout tests)
        self.cut: list[str] = []  # texts that did not fit even wrapped (the tests want none)

    # -- primitives ----------------------------------------------------------------------------------
    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int = 18,
        fill: Any = INK,
        bold: bool = False,
        anchor: str = "la",
    ) -> None:
        self.d.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)

    def block(
        self,
        xy: tuple[float, float],
        text: str,
        width: int,
        size: int,
        fill: Any = INK,
        bold: bool = False,
        *,
        min_size: int = 12,
        lines: int = 1,
        height: int | None = None,
    ) -> Fitted:
        """`text` fitted to `width` (see `fitted`), its lines drawn from `xy` down; with `height`,
        the lines are centred vertically in that height."""
        laid = fitted(text, size, width, bold, min_size=min_size, lines=lines)
        if laid.cut:
            self.cut.append(text)
        step = laid.size + 2
        x, y = xy
        if height is not None:
            y += (height - step * len(laid.lines)) / 2
        for i, line in enumerate(laid.lines):
            self.text((x, y + i * step), line, laid.size, fill, bold)
        return laid

    def squares(self, x: int, y: int, filled: int, total: int, size: int, colour: Any) -> int:
        for i in range(total):
            box = (x + i * (size + 4), y, x + i * (size + 4) + size, y + size)
            self.d.rounded_rectangle(box, 3, fill=colour if i < filled else EMPTY)
        return x + total * (size + 4)

    # -- header --------------------------------------------------------------------------------------
    def header(self, title_right: str | None = None) -> None:
        s = self.s
        title = turn_title(self.lang, s.turn, self.turns)
        if 0 < s.turn <= self.turns:
            title = f"{title} · {word(self.lang, 'phase', phase=board.phase_of(s.turn))}"
        self.d.rectangle((0, 0, W, 48), fill=PANEL)
        self.text((14, 24), title, 26, bold=True, anchor="lm")
        if s.lost:
            self.text((W - 14, 24), word(self.lang, "lost"), 26, DAMAGE, bold=True, anchor="rm")
        elif title_right:
            self.text((W - 14, 24), title_right, 24, ENERGY, bold=True, anchor="rm")

    # -- tracks --------------------------------------------------------------------------------------
    def track_step(self) -> float:
        longest = max(board.track(tid).length for tid in self.tracks.values())
        return (TRACK_BOTTOM - TRACK_TOP) / longest

    def space_y(self, space: int) -> float:
        return TRACK_BOTTOM - (space - 0.5) * self.track_step()

    def tracks_and_threats(self) -> None:
        step = self.track_step()
        for col, tid in self.tracks.items():
            x = COLUMNS[col]
            track = board.track(tid)
            self.d.rectangle((x, 54, x + COL_W[col], 86), fill=ZONE_DARK[col])
            self.d.rectangle((x, 54, x + 6, 86), fill=ZONE_RGB[col])
            name = word(self.lang, "internal") if col == "internal" else ""
            self.text((x + 14, 70), f"{tid} {name}".strip(), 20, INK, bold=True, anchor="lm")
            for space in range(1, track.length + 1):
                top = TRACK_BOTTOM - space * step
                self.d.rectangle((x + 2, top + 1, x + 34, top + step - 1), fill=ZONE_DARK[col])
                letter = track.letters[space]
                if letter:
                    self.text((x + 18, top + step / 2), letter, 15, ZONE_RGB[col], bold=True, anchor="mm")
            threats = [t for t in self.s.threats if self._on_column(t, col)]
            self._threat_cards(col, threats)

    def _on_column(self, t: ThreatView, col: str) -> bool:
        if not t.appeared or (not t.visible and t.fate is None):
            return False
        if t.fate is not None and t.fate_turn != self.s.turn and not self.every_fate:
            return False  # gone in an earlier turn
        return (col == "internal") if t.internal else t.zone == col

    def _threat_cards(self, col: str, threats: list[ThreatView]) -> None:
        if not threats:
            return
        x = COLUMNS[col]
        room = TRACK_BOTTOM - TRACK_TOP
        h = min(50, room // len(threats))
        # nearest to the ship at the bottom; push cards up from the bottom so none overlap
        ordered = sorted(threats, key=lambda t: (t.position, t.number))
        tops: list[float] = []
        limit = float(TRACK_BOTTOM)
        for t in ordered:
            want = self.space_y(max(t.position, 1)) - h / 2
            top = min(want, limit - h)
            tops.append(top)
            limit = top - 2
        if tops and tops[-1] < TRACK_TOP:  # too high: shift everything down by the overflow
            shift = TRACK_TOP - tops[-1]
            tops = [tp + shift for tp in tops]
        for t, top in zip(ordered, tops, strict=True):
            self._threat_card(col, x, int(top), h, t)

    def _threat_card(self, col: str, x: int, top: int, h: int, t: ThreatView) -> None:
        left, right = x + 44, x + COL_W[col] - 2
        sy = self.space_y(max(t.position, 1))
        hit = self.marks.hit.get(t.number) if t.fate_turn in (None, self.s.turn) else None
        gone = t.fate is not None
        outline = HIT if hit else (DAMAGE if t.fate == "survived" else None)
        fill = (40, 34, 30) if gone else PANEL
        self.d.line((x + 34, sy, left, top + h / 2), fill=ZONE_RGB[col], width=2)
        self.d.ellipse((x + 8, sy - 9, x + 28, sy + 9), fill=ZONE_RGB[col])
        self.d.rounded_rectangle((left, top, right, top + h - 2), 6, fill=fill, outline=outline, width=3)
        self.boxes.append(("threat", (left, top, right, top + h - 2)))
        badge = h - 10 if h < 36 else 30
        self.d.ellipse((left + 4, top + 4, left + 4 + badge, top + 4 + badge), fill=ZONE_RGB[col])
        self.text((left + 4 + badge / 2, top + 4 + badge / 2), str(t.number), 18, BG, bold=True, anchor="mm")
        tx = left + badge + 10
        name = threat_label(self.lang, t.id)
        status = ""
        if t.fate == "destroyed":
            status = "✗ " + word(self.lang, "destroyed")
        elif t.fate == "survived":
            status = "✓ " + word(self.lang, "survived")
        if h >= 36:
            # the name on one line (shrunk to 14 px at most), else on two lines of 13 px: never cut
            laid = fitted(name, 17, right - tx - 4, True, min_size=14)
            if laid.cut:
                laid = self.block((tx, top + 2), name, right - tx - 4, 13, INK if not gone else DIM, True, lines=2)
            else:
                self.text((tx, top + 3), name, laid.size, INK if not gone else DIM, bold=True)
            below = top + (23 if len(laid.lines) == 1 else 29)
            line2 = status or f"♥ {t.remaining}/{t.health}" + (f"  ◆{t.shield}" if t.shield else "")
            colour = ENERGY if t.fate == "destroyed" else DAMAGE if t.fate else HIT if hit else INK
            small = len(laid.lines) > 1
            self.text((tx, below), line2, 16 if small else 19, colour, bold=True)
            if hit and not gone:
                self.text((right - 6, below), f"−{hit}", 16 if small else 20, HIT, bold=True, anchor="ra")
        else:  # many threats on one track: one line each
            line = f"{t.remaining}/{t.health} " + (status or name)
            self.block((tx, top), line, right - tx - 4, 16, INK, True, min_size=11, height=h - 2)
        self.card_anchor[t.number] = (left, int(top + h / 2))

    # -- damage strip --------------------------------------------------------------------------------
    def damage_strip(self) -> None:
        for zone in board.ZONES:
            x = COLUMNS[zone]
            tokens = self.s.damage[zone]
            new = self.marks.new_tokens.get(zone, 0)
            attacked = zone in self.marks.attacked or zone in self.marks.absorbed
            self.d.rectangle((x, DAMAGE_Y, x + COL_W[zone], DAMAGE_Y + 38), fill=(60, 26, 30) if attacked else PANEL)
            for i in range(board.MAX_ZONE_DAMAGE):
                bx = x + 6 + i * 30
                box = (bx, DAMAGE_Y + 5, bx + 27, DAMAGE_Y + 33)
                if i < len(tokens):
                    fresh = i >= len(tokens) - new
                    self.d.rectangle(box, fill=DAMAGE, outline=HIT if fresh else None, width=3)
                    code = token_short(self.lang, tokens[i])
                    self.text((bx + 14, DAMAGE_Y + 19), code, 13, INK, bold=True, anchor="mm")
                else:
                    self.d.rectangle(box, outline=EMPTY, width=2)
            total = len(tokens)
            self.text((x + COL_W[zone] - 6, DAMAGE_Y + 19), str(total), 24, DAMAGE if total else DIM, True, "rm")

    # -- the ship ------------------------------------------------------------------------------------
    def ship(self) -> None:
        for st in board.STATIONS:
            self._station(st)
        self._shots()

    def _station(self, st: Station) -> None:
        deck, zone = st.split("_", 1)[0], board.zone_of(st)
        x0, y0, x1, y1 = station_box(st)
        fired = st in self.marks.fired
        outline, width = (SHOT, 4) if fired else (ZONE_RGB[zone], 2)
        self.d.rounded_rectangle((x0, y0, x1, y1), 8, fill=ZONE_DARK[zone], outline=outline, width=width)
        # energy: the shield in the upper station, the reactor in the lower one
        if deck == "upper":
            have, cap, label = self.s.shields[zone], board.SHIELD_CAPACITY[zone], word(self.lang, "shield")
        else:
            have, cap, label = self.s.reactors[zone], board.REACTOR_CAPACITY[zone], word(self.lang, "reactor")
        end = self.squares(x0 + 8, y0 + 8, have, cap, 20, ENERGY)
        # right corner: battlebot depot and internal threat tokens
        badges: list[tuple[str, Any]] = []
        depot = self.s.depots.get(st, None) if st in board.BATTLEBOT_DEPOTS else None
        if depot is not None:
            badges.append(("B", ENERGY if depot == "ready" else DIM))
        for t in self.s.threats:
            if t.internal and t.appeared and t.fate is None and st in t.stations:
                badges.append((str(t.number), INTRUDER if t.kind == "intruder" else HIT))
        bx = x1 - 6
        for text_, colour in reversed(badges):
            w = 26 if len(text_) == 1 else 34
            self.d.rounded_rectangle((bx - w, y0 + 6, bx, y0 + 32), 6, fill=colour)
            self.text((bx - w / 2, y0 + 19), text_, 17, BG, bold=True, anchor="mm")
            bx -= w + 4
        # the shield / reactor word between the squares and the badges: smaller, never cut
        self.block((end + 4, y0 + 6), label, bx - end - 6, 15, DIM, min_size=10, lines=2, height=26)
        crew = [(i, c) for i, c in enumerate(self.s.crew) if c.station == st]
        columns = 1 if len(crew) <= 3 else 2  # full names while they fit one per row
        pill_w = (x1 - x0 - 12 - 4 * (columns - 1)) // columns
        for slot, (i, c) in enumerate(crew):
            col, row = slot % columns, slot // columns
            px = x0 + 6 + col * (pill_w + 4)
            py = y0 + 40 + row * 40
            self._crew_pill(px, py, pill_w, i, c)

    def _crew_pill(self, x: int, y: int, w: int, index: int, c: CrewView) -> None:
        colour = CREW_RGB[index % len(CREW_RGB)]
        self.boxes.append(("crew", (x, y, x + w, y + 34)))
        ko = c.knocked_out
        fresh_ko = c.name in self.marks.knocked
        self.d.rounded_rectangle(
            (x, y, x + w, y + 34), 8, fill=(70, 70, 80) if ko else (24, 28, 40), outline=DAMAGE if fresh_ko else colour
        )
        if ko:  # lying: head left, body along the floor
            self.d.ellipse((x + 3, y + 17, x + 9, y + 23), fill=DIM)
            self.d.line((x + 9, y + 20, x + 20, y + 20), fill=DIM, width=4)
        else:  # standing
            self.d.ellipse((x + 6, y + 4, x + 16, y + 14), fill=colour)
            self.d.line((x + 11, y + 14, x + 11, y + 30), fill=colour, width=4)
        text_w = w - 26 - (16 if c.bots else 0)
        name = crew_label(self.lang, strip_unsafe(c.name))  # whole: smaller, then on two lines
        self.block((x + 23, y + 1), name, text_w, 17, DIM if ko else INK, True, min_size=10, lines=2, height=32)
        if c.bots:
            bx = x + w - 18
            self.d.rectangle((bx, y + 9, bx + 14, y + 25), fill=ENERGY if c.bots == "active" else DIM)
            if c.bots != "active":
                self.d.line((bx, y + 9, bx + 14, y + 25), fill=DAMAGE, width=3)

    def _shots(self) -> None:
        for number, stations in self.marks.shot_from.items():
            anchor = self.card_anchor.get(number)
            if anchor is None:
                continue
            for st in stations:
                if st == "space":
                    sx, sy = COLUMNS["internal"] + 20, 520
                else:
                    x0, y0, x1, _ = station_box(st)
                    sx, sy = (x0 + x1) // 2, y0 + 4
                self.d.line((sx, sy, anchor[0], anchor[1]), fill=SHOT, width=3)
                self.d.ellipse((anchor[0] - 5, anchor[1] - 5, anchor[0] + 5, anchor[1] + 5), fill=SHOT)

    # -- systems and events --------------------------------------------------------------------------
    def systems(self) -> None:
        x, y = COLUMNS["internal"], DAMAGE_Y
        w = COL_W["internal"]
        self.d.rounded_rectangle((x, y, x + w, H - 6), 8, fill=PANEL)
        self.text((x + 10, y + 8), word(self.lang, "fuel"), 18, DIM)
        self.squares(x + 120, y + 8, self.s.fuel, board.FUEL_CAPSULES, 20, ENERGY)
        self.text((x + 10, y + 36), word(self.lang, "rockets"), 18, DIM)
        end = self.squares(x + 120, y + 36, self.s.rockets, board.ROCKETS, 20, (230, 230, 240))
        if self.s.rocket_flying:
            self.text((end + 6, y + 46), "→", 22, SHOT, bold=True, anchor="lm")
        pilots = [c.name for c in self.s.crew if c.intercepting]
        self.text((x + 10, y + 64), word(self.lang, "interceptors"), 18, DIM)
        if pilots:
            pilots_text = "✈ " + ", ".join(crew_label(self.lang, p) for p in pilots)
            self.block((x + 10, y + 86), pilots_text, w - 20, 19, SHOT, True, min_size=12)
        else:
            self.text((x + 10, y + 86), "—", 19, DIM)
        self.events(x + 10, y + 118, w - 20)

    def events(self, x: int, y: int, w: int) -> None:
        self.text((x, y), word(self.lang, "events"), 18, DIM, bold=True)
        events = event_lines(self.s.events, self.lang)
        if not events:
            events = [(word(self.lang, "nothing"), DIM)]
        # each event whole, on as many rows as it needs; the events that find no room are counted
        rows: list[tuple[str, Any]] = []
        for line, colour in events:
            wrapped, _ = wrap(line, 16, w)
            rows += [(part, colour) for part in wrapped]
        room = (H - 12 - (y + 26)) // 20
        if len(rows) > room:
            shown, kept = 0, list[tuple[str, Any]]()
            for line, colour in events:
                wrapped, _ = wrap(line, 16, w)
                if len(kept) + len(wrapped) > room - 1:
                    break
                kept += [(part, colour) for part in wrapped]
                shown += 1
            rows = [*kept, (f"+{len(events) - shown} …", DIM)]
        for i, (line, colour) in enumerate(rows):
            self.text((x, y + 26 + i * 20), line, 16, colour)

    def paint(self, title_right: str | None = None) -> Image.Image:
        self.header(title_right)
        self.tracks_and_threats()
        self.damage_strip()
        self.ship()
        self.systems()
        return self.img


def event_lines(events: Iterable[dict[str, Any]], lang: str) -> list[tuple[str, Any]]:
    """Short lines for the events panel: appearances, hits, kills, attacks, knock-outs."""
    out: list[tuple[str, Any]] = []
    for e in events:
        kind = e.get("kind")
        n = e.get("number")
        if kind == "threat_appears":
            out.append((f"{n} {threat_label(lang, str(e['threat']))}: {word(lang, 'appears')}", INK))
        elif kind == "threat_damage" and e.get("damage"):
            out.append((f"{n} {threat_label(lang, str(e['threat']))} −{e['damage']}", HIT))
        elif kind == "threat_hit":
            out.append((f"{n} {threat_label(lang, str(e['threat']))} −{e.get('amount', 1)} ({e.get('by')})", HIT))
        elif kind == "threat_destroyed":
            out.append((f"✗ {n} {threat_label(lang, str(e['threat']))}", ENERGY))
        elif kind == "threat_survived":
            out.append((f"✓ {n} {threat_label(lang, str(e['threat']))}: {word(lang, 'survived')}", DAMAGE))
        elif kind == "attack":
            dmg = int(e.get("damage", 0))
            shield = f" ◆−{e['absorbed']}" if e.get("absorbed") else ""
            line = f"⚔ {word(lang, str(e['zone']))} {e['amount']}{shield} → {word(lang, 'damage')} {dmg}"
            out.append((line, DAMAGE if dmg else INK))
        elif kind == "knocked_out":
            out.append((f"{crew_label(lang, str(e['player']))}: {word(lang, 'knocked_out')}", DAMAGE))
        elif kind == "mission_lost":
            out.append((word(lang, "lost"), DAMAGE))
    return out


def png(img: Image.Image) -> bytes:
    """PNG bytes; compression level 3 is ~3x faster than the default for a few % more bytes."""
    buf = BytesIO()
    img.save(buf, format="PNG", compress_level=3)
    return buf.getvalue()
