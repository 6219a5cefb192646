"""The `people` app: one table, served three ways (django-services, DRF, plain Django)."""
