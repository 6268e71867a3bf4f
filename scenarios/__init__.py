"""Mission timelines and data files (official soundtrack schedules, custom mission folders)."""
