"""The widgets, one per module: each draws from the app state it binds (``data_bind``) and redraws in its watchers."""
