"""
The call pipeline: what every service call runs, whatever transport carried it.

Method rules, authentication, permissions, throttles, input checks, hooks, the method and
its events after commit (`calls.py`), with the `Params` a method receives.
"""
