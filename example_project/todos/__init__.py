"""Each user's todo list, served at `todos`, with the custom method `markAllComplete`."""
