"""The one parsing edge for every document that comes from outside: bytes in, a checked model out.

GAME.json (CLI file or stdin, `/resolve` attachment or pasted text), timeline files (CLI `--file`,
SCENARIO_DIRS, `/mission custom add`) all pass through `decode_json` and then their model, in the
same order everywhere, so the same bytes get the same verdict wherever they are handed in:

1. size: refused before anything is decoded (callers also refuse by declared size before reading);
2. text: strict UTF-8; one leading byte-order mark is accepted everywhere (editors on Windows add it);
3. JSON: nesting depth bounded by a scan that cannot recurse, integers and floats bounded in digits
   before Python converts them (a 10,000-digit integer costs quadratic time and then raises);
4. the pydantic model in strict mode: no `true` for an integer, no "3" or 3.0 for 3;
5. the game's own rules (what a physical game could never look like).

Every failure is a `DocumentError` whose message is one line naming the field and the problem.
Pure: no file or network access here (the callers read, with a size cap).
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.model import Game, physical_problem

MAX_GAME_BYTES = 256 * 1024  # a 5-player game with log options is under 2 KB
MAX_TIMELINE_BYTES = 64 * 1024  # an official track is about 3 KB
MAX_DEPTH = 16  # a game nests 4 levels, a timeline 3
MAX_NUMBER_CHARS = 24  # enough for any 64-bit seed; far below Python's own 4,300-digit limit
MAX_MESSAGE_CHARS = 300

_BOM = "\ufeff"
_STRUCTURE = re.compile(r'[\[\]{}"\\]')

M = TypeVar("M", bound=BaseModel)


class DocumentError(ValueError):
    """An outside document was refused; str() is one line naming the field and the problem."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def one_line(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """Collapse whitespace (no newline survives) and bound the length of a message."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def check_size(size: int, limit: int) -> None:
    """Refuse a document by its (declared or read) size, before it is decoded."""
    if size > limit:
        raise DocumentError(f"too large: {size} bytes, the limit is {limit} bytes")


def decode_text(raw: bytes, limit: int) -> str:
    """Steps 1-2: size, then strict UTF-8 with at most one leading byte-order mark removed."""
    check_size(len(raw), limit)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DocumentError(f"not UTF-8 text: invalid byte at offset {err.start}") from None
    text = text.removeprefix(_BOM)
    if not text.strip():
        raise DocumentError("empty document")
    return text


def nesting_depth(text: str, limit: int) -> int:
    """The deepest bracket nesting of JSON text, outside strings; stops early past `limit`.

    A flat scan over the structural characters only, so it neither recurses nor backtracks: its
    cost is linear in the text whatever the text holds (malformed input included).
    """
    depth = deepest = 0
    in_string = False
    skip_at = -1
    for match in _STRUCTURE.finditer(text):
        pos = match.start()
        if pos == skip_at:  # the character escaped by a backslash
            continue
        ch = match.group()
        if in_string:
            if ch == "\\":
                skip_at = pos + 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _bounded_int(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise DocumentError(f"number too long: {literal[:12]}… has {len(literal)} characters")
    return int(literal)


def _bounded_float(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise DocumentError(f"number too long: {literal[:12]}… has {len(literal)} characters")
    return float(literal)


def _no_constant(name: str) -> Any:
    raise DocumentError(f"not valid JSON: {name} is not a JSON number")


def decode_json(raw: bytes, limit: int) -> Any:
    """Steps 1-3: bytes to a JSON value, or DocumentError.  Never RecursionError, never slow."""
    text = decode_text(raw, limit)
    if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        raise DocumentError(f"nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        # "malformed" and "not valid JSON" are both kept: scripts and tests written against
        # the earlier CLI and bot messages look for either.
        where = f"line {err.lineno} column {err.colno}"
        raise DocumentError(f"not valid JSON (malformed JSON at {where}: {err.msg})") from None
    except RecursionError:  # pragma: no cover - the depth scan runs first; kept as a last guard
        raise DocumentError(f"nested more than {MAX_DEPTH} levels deep") from None


def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def field_path(loc: tuple[int | str, ...], root: str) -> str:
    """pydantic's error location as a JSON path: players[0].actions; validator wrappers dropped."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).startswith("function-") or part in ("tagged-union", "literal"):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out or root


def validation_line(err: ValidationError, root: str) -> str:
    """The first pydantic problem as `field: problem` (the value itself is never echoed)."""
    first = err.errors(include_url=False, include_input=False)[0]
    msg = str(first["msg"]).removeprefix("Value error, ")
    return one_line(f"{field_path(tuple(first['loc']), root)}: {msg}")


def validate_model(model: type[M], data: Any, root: str) -> M:
    """Step 4: the pydantic model in strict mode; its first problem as a DocumentError."""
    if not isinstance(data, dict):
        raise DocumentError(f"{root}: must be a JSON object, got {json_type(data)}")
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as err:
        raise DocumentError(validation_line(err, root)) from None


def parse_game(raw: bytes) -> Game:
    """GAME.json bytes to a Game that a physical table could have produced, or DocumentError."""
    game = validate_model(Game, decode_json(raw, MAX_GAME_BYTES), "game")
    problem = physical_problem(game)
    if problem:
        raise DocumentError(problem)
    return game
