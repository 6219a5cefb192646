"""The demo: a page using the Feathers browser client, and the `seed_demo` command."""
