"""The line mode: War told one plain sentence at a time, for screen readers, braille displays and dumb terminals.

Built on the engine's events alone; no Textual or Rich, no escape sequences, no cursor movement.
"""
