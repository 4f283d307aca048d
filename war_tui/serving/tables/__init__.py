"""This server's tables as the doors reach them: the host of the one registry, the keeper that writes its
tables to the store, a door's place at the tables, and both ends of a game's table socket."""
