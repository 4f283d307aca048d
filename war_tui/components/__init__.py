"""Widgets: one module per widget."""
