"""What owns the games and tables in play: one serialized owner per live game or table, the grouped
writes that make a move durable before it is acknowledged, and the review workers."""
