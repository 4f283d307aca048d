"""Screens: one module per screen."""
