"""The server's edge: what keeps other sites, oversized and slow requests and floods out (security, the
guarded HTTP connection, rate limits, the player's cookie, HEAD), and what an operator reads of it
(metrics, logs)."""
