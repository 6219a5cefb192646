"""
The service classes: `Service`, `ModelService` and what they are made of (their options,
queries, pagination, representation of records and row writes).
"""
