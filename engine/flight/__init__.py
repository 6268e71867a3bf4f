"""The live action round: intercom timelines, the spoken script (in codes) and the flight state machine.

Nothing here sleeps, reads the wall clock or touches Discord: the caller advances mission time and
renders the events it gets back (rulebook §2, §5).
"""
