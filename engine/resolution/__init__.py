"""Resolution of the 12 (+1) turns after the action round, one module per rulebook step."""
