"""Textual stylesheets, shipped inside the wheel as ``war_tui.styles``."""
