"""Flight school: the rules learnt in the rulebook's order, one short flight per lesson.

`lessons` holds the path (explanation in en/ru/cs, a fitting recording, untimed by default),
`hints` turns a school flight's event log into "what went wrong and which rule explains it",
`progress` remembers how far a player got.  Pure: the bot stores and shows them.
"""
