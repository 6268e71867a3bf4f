"""Project: ELITE director rules (seed 004): setup tables, round structure, decks, dice, hidden tokens.

Mechanics only.  Card texts, die faces and board maps are printed on the components and belong to
their publisher; they enter through an owner's data pack (`engine.elite.datapack`) or stay on the
table, and the director then prompts the crew to draw the physical card.
"""
