"""The cluster's names and rules in Redis: how long a lease and a heartbeat last, the keys and channels
of tables, processes and connections, and the scripts that renew, take and release a table's lease
atomically (see ``parlour.server.cluster.node`` for how they are used)."""

from __future__ import annotations

from typing import Final

LEASE_MS: Final = 8000
"""How long a table's lease lasts without renewal: the longest a dead owner's table waits to move."""
RENEW_SECONDS: Final = 2.0
HEARTBEAT_MS: Final = 3000
"""How long a process counts as alive after its last heartbeat."""
HEARTBEAT_SECONDS: Final = 0.75
ALIVE_SECONDS: Final = 5.0
"""How often a relay tells the owner its page is still there."""
STALE_SECONDS: Final = 15.0
DELIVER_SECONDS: Final = 3.0
"""How long a relay keeps trying to reach a table's owner that holds the lease but does not listen yet."""
RENEW_SCRIPT: Final = """
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"""
"""Renew this process's lease, or take it back when Redis lost it (restarted, or the lease ran out
during an outage) and nobody else took it: 1 renewed, 2 taken back, 0 another process holds it."""
STEAL_SCRIPT: Final = """
local holder = redis.call('get', KEYS[1])
if not holder then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if holder == ARGV[1] then return 1 end
if redis.call('exists', 'parlour:node:' .. holder .. ':alive') == 0 then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
"""Take a table's lease when it is free or its holder's heartbeat has stopped (the holder is dead, or
cut off from Redis: its writes are then refused by the owner epoch): 1 taken, 0 its holder is alive.
The script reads the holder's heartbeat key, which it cannot declare in advance: fine on one Redis
server, not on Redis Cluster (whose scripts may touch only declared keys of one slot)."""
RELEASE_SCRIPT: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def lease_key(table_id: str) -> str:
    return f"parlour:table:{table_id}:lease"


def alive_key(node: str) -> str:
    """The heartbeat key of a process (see :data:`STEAL_SCRIPT`, which spells it out too)."""
    return f"parlour:node:{node}:alive"


def table_channel(table_id: str) -> str:
    return f"parlour:table:{table_id}:in"


def conn_channel(conn: str) -> str:
    return f"parlour:conn:{conn}"
