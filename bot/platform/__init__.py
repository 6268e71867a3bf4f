"""The platform every game stands on: what Discord needs from any game (component ids, seats,
permissions, replies, limits), knowing no game.  A game registers itself here; nothing in this
package imports a game.
"""
