"""Flight school: the rules learnt in the rulebook's order, one short flight per lesson.

`lessons` holds the path (a fitting recording per lesson, untimed by default; the words are the
catalogue's `school` area),
`hints` turns a school flight's event log into "what went wrong and which rule explains it",
`progress` remembers how far a player got.  Pure: the bot stores and shows them.
"""
