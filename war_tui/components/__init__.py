"""The widgets, one per module. Each renders from its own small state."""
