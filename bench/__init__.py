"""
Benchmarks of django-feathers against DRF and plain Django, served by gunicorn on loopback.

    python -m bench              # quick: SQLite, 100k rows, sync and gthread workers
    python -m bench --full       # also 1M rows, PostgreSQL and the FeathersJS reference
    python -m bench.profile      # CPU per request in-process; --profile WORKLOAD for a profile
    python -m bench.spy get      # py-spy on live gunicorn workers under load
    python -m bench.sockets      # 500 socket.io clients receiving 20 writes a second

See docs/performance.md for what the figures mean.
"""
