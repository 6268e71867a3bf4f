"""Bot extensions (cogs), one package per feature; each `__init__` only has `setup()`."""
