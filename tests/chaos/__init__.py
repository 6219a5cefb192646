"""
Chaos: a writer writes while the network, a server process, Redis or PostgreSQL fails, and
every client ends with every committed record's event, once, in order (see `scenarios`).
"""
