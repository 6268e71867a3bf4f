"""SQLite migrations: NNNN_description.sql, applied in order, once each."""
