"""
A second project, run by a real server (gunicorn, uvicorn) in child processes: its views call
the test project (the live server) through a remote that logs in as a service account.
"""
