"""Screens shown over the board: game over, help, and the too-small notice."""
