"""Screens, one per module: game over, help, too small, statistics."""
