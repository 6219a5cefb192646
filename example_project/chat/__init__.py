"""A chat room shared by every user, served at `api/v1/messages`, a page at a time."""
