"""PostgreSQL migrations: NNNN_description.sql, applied in order under an advisory lock."""
