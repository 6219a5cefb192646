"""The `people` app: one table, served three ways (django-feathers, DRF, plain Django)."""
