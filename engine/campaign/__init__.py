"""The exploration campaign (rulebook §6): up to three missions with one ship whose damage carries over.

Pure and deterministic like the rest of the engine.  The modules, by what they hold:
`carried` (the ship state that crosses from one mission to the next, GAME.json's `carried` block),
`repairs` (the repair step between missions), `scoring` (the campaign's one score), `vote` (the
crew's difficulty / go-on votes), `recording` (the seeded choice of the next recording).  The
rules as written down for this project are in engine/campaign/README.md.

This package's __init__ imports nothing: engine.model imports `engine.campaign.carried`, and a
re-export here of a module that imports engine.model would be an import cycle.
"""
