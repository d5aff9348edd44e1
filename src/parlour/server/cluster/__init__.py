"""Several server processes serving the same tables (``--redis-url``): leases and heartbeats in Redis, and
the relay of pages connected to another process than their table's owner."""
