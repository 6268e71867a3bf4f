"""Numbered SQL migrations applied in order at start-up, one folder per backend.

`sqlite/` is the embedded default; `postgres/` is the shared store for several processes.  The
two sets describe the same tables and are numbered independently (a backend-specific fix does
not have to be mirrored), but a change to the shared shape lands in both.
"""
