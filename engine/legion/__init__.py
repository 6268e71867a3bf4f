"""Scarlet Legion (seed 002): a ship's crew with a hidden traitor, as a pure rules engine.

No Discord, no I/O, no clock: a seeded `random.Random` in the state rolls every die, events are
codes with parameters, and snapshots are versioned JSON.  The gaps the seed leaves are settled in
docs/legion-rules.md; every rule here names its seed rule ("seed 3.1.x") or decision ("D-n").
"""
