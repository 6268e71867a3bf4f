"""Threat cards as data: the catalogue (catalog.py) loads engine/data/threats.json and names the
traits the rules read.  What the cards' X/Y/Z ops do lives with the rules, in
engine/resolution/card_actions.py, so this package imports nothing from the resolution."""
