"""Ship intercom speech: text to speech backends, the audio cache and per-guild playback scheduling."""
