"""Star World: Escape (seed 003): the rules engine for referee and digital mode (issue 27)."""
