"""Private notes, served at `users/:userId/notes`: each user reads and writes only their own."""
