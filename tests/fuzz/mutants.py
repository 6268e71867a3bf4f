"""Seeded mutants of valid documents: what a careless or hostile member could hand in.

Structural mutations work on the decoded JSON (wrong types, missing and extra keys, huge and
negative numbers, unknown ids, deep nesting, hostile strings); byte mutations work on the encoded
file (truncation, flipped bytes, invalid UTF-8, a BOM, very large or empty files).  Everything is
drawn from one `random.Random`, so a failing mutant is reproduced by its seed and index.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

HOSTILE_VALUES: list[Any] = [
    True,
    False,
    None,
    0,
    -1,
    3.0,
    "3",
    "",
    " ",
    2**70,
    -(2**70),
    1e308,
    [],
    {},
    "E9-99",
    "T9",
    "<@&123> @everyone **x**",
    "\u202egpj.exe",
    "x" * 5000,
    {"a": {"b": {"c": [1, [2, [3]]]}}},
]

# Literals the JSON encoder cannot produce but a file can hold.
RAW_LITERALS = [
    b"9" * 5000,
    b"-" + b"9" * 400,
    b"1e99999",
    b"NaN",
    b"Infinity",
    b"[" * 3000 + b"]" * 3000,
    b'"\\ud800"',
]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


def _parent(root: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        root = root[key]
    return root


def mutate_value(rng: random.Random, doc: Any) -> Any:
    """One to three structural changes at random places of a deep copy of `doc`."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            return rng.choice(HOSTILE_VALUES)
        path = rng.choice(paths)
        parent, key = _parent(doc, path), path[-1]
        op = rng.randrange(7)
        if op == 5:
            deep: Any = parent[key]
            for _ in range(rng.choice([2, 20, 200])):
                deep = [deep]
            parent[key] = deep
        elif op == 1 and isinstance(parent, dict):
            del parent[key]
        elif op == 1 and isinstance(parent, list):
            parent.pop(key)
        elif op == 2 and isinstance(parent, dict):
            parent[rng.choice(["extra", "hat", "__proto__", "zone"])] = rng.choice(HOSTILE_VALUES)
        elif op == 3 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))  # a duplicate: same card, same player, same slot
        elif op == 4 and isinstance(parent[key], int | float) and not isinstance(parent[key], bool):
            parent[key] = rng.choice([parent[key] + 1, parent[key] - 1, -parent[key], parent[key] * 10**6])
        else:
            parent[key] = copy.deepcopy(rng.choice(HOSTILE_VALUES))
    return doc


def mutate_bytes(rng: random.Random, raw: bytes) -> bytes:
    """One byte-level change of an encoded document."""
    op = rng.randrange(8)
    if op == 0:
        return raw[: rng.randrange(len(raw) + 1)]
    if op == 1:
        pos = rng.randrange(len(raw))
        return raw[:pos] + bytes([rng.randrange(256)]) + raw[pos + 1 :]
    if op == 2:
        pos = rng.randrange(len(raw))
        return raw[:pos] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"]) + raw[pos:]
    if op == 3:
        return b"\xef\xbb\xbf" + raw
    if op == 4:
        return rng.choice([b"", b" ", b"\n", b"null", b"[]", b"{}", b'"x"', b"1"])
    if op == 5:
        # replace one number with a literal the encoder never writes
        digits = [i for i, b in enumerate(raw) if chr(b).isdigit() and not chr(raw[i - 1]).isalnum()]
        if digits:
            pos = rng.choice(digits)
            end = pos
            while end < len(raw) and chr(raw[end]).isdigit():
                end += 1
            return raw[:pos] + rng.choice(RAW_LITERALS) + raw[end:]
        return raw
    if op == 6:
        depth = rng.choice([50, 5_000, 200_000])
        return b"[" * depth + raw + b"]" * rng.choice([0, depth])
    return raw + b" " * rng.choice([0, 300_000])


def mutants(rng: random.Random, valid: list[Any], count: int) -> list[bytes]:
    """`count` encoded mutants of the valid documents (a few left valid, as controls)."""
    out: list[bytes] = []
    for i in range(count):
        doc = rng.choice(valid)
        if i % 10 == 0:
            out.append(json.dumps(doc).encode())
            continue
        raw = json.dumps(mutate_value(rng, doc)).encode() if rng.random() < 0.85 else json.dumps(doc).encode()
        if rng.random() < 0.4:
            raw = mutate_bytes(rng, raw)
        out.append(raw)
    return out
