"""Users who log in with an email address, and the `users` service."""
