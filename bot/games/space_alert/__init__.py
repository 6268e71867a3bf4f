"""Space Alert: the flight, its campaign and school, replays, hindsight, records and pictures."""
