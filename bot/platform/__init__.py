"""The platform every game stands on (seats, permissions, …); it never imports a game."""
