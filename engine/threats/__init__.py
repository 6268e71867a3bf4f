"""Threat cards: their data (catalog), the named behaviours their X/Y/Z actions use (ops), and
the special rules of the rulebook appendix (§7) that cards switch on by trait."""
